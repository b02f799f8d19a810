import assert from 'node:assert/strict';
import { GoalSchema, LabelSchema, RecommendationSchema } from '../../../src/contract/autotrain';
import { fitPreprocessor } from '../../../src/engine';
import {
  generateFeatureEngineering,
  generateGoals,
  generateLabels,
  pickLabel,
  RULES_CONTEXT,
  stepsFromRecommendations,
} from '../../../src/autotrain';
import { ruleSummary } from './helpers';

describe('autotrain labels (rules)', () => {
  it('ranks the penguin species first as a multiclass classifier, the measurements next, the sex and the place last (penguins.csv)', async () => {
    const { frame, summary } = await ruleSummary('penguins.csv');
    const result = await generateLabels(summary, RULES_CONTEXT, frame);
    assert.equal(result.source, 'rules');
    assert.deepEqual(result.warnings, []);
    assert.deepEqual(result.labels.map((l) => [l.column, l.model_type]), [
      ['Species', 'classifier'],
      ['Body Mass (g)', 'regressor'],
      ['Flipper Length (mm)', 'regressor'],
      ['Beak Depth (mm)', 'regressor'],
      ['Beak Length (mm)', 'regressor'],
      ['Sex', 'classifier'],
      ['Island', 'classifier'],
    ]);
    const top = result.labels[0];
    assert.match(top.reasoning, /^'Species' has 3 values \(Adelie, Chinstrap, Gentoo\), so it suits multiclass classification into 3 classes/);
    assert.deepEqual(top.alternatives, ['Body Mass (g)', 'Flipper Length (mm)', 'Beak Depth (mm)']);
    assert.match(result.labels[5].reasoning, /class '\.' has 1 row \(1 among the training rows\).*training it leaves out that row \(rare_classes "drop"\)/);
    assert.deepEqual(result.labels[5].rare_classes, [{ class: '.', rows: 1, training_rows: 1 }]);
    for (const label of result.labels) assert.equal(LabelSchema.safeParse(label).success, true);
    assert.equal(pickLabel(result.labels)?.column, 'Species');
  });

  it('prefers the 5-class weather to the binary place as a classifier and never offers dates (weather.csv)', async () => {
    const { summary } = await ruleSummary('weather.csv');
    const { labels } = await generateLabels(summary, RULES_CONTEXT);
    assert.deepEqual([labels[0].column, labels[0].model_type, labels[0].confidence], ['weather', 'classifier', 0.6]);
    assert.ok(!labels.some((l) => l.column === 'date'));
    const location = labels.find((l) => l.column === 'location');
    assert.deepEqual([location?.model_type, location?.confidence], ['classifier', 0.38]);
    assert.match(location?.reasoning ?? '', /says where or who a row is \(location\)/);
  });

  it('proposes the label a data scientist would on every sample dataset', async () => {
    const expected: Record<string, [string, 'classifier' | 'regressor']> = {
      'penguins.csv': ['Species', 'classifier'],
      'cars.csv': ['Miles_per_Gallon', 'regressor'],
      'movies.csv': ['IMDB Rating', 'regressor'],
      'seattle-weather.csv': ['weather', 'classifier'],
      'weather.csv': ['weather', 'classifier'],
      'flights-20k.csv': ['delay', 'regressor'],
    };
    for (const [file, [column, modelType]] of Object.entries(expected)) {
      const { frame, summary } = await ruleSummary(file);
      for (const rows of [frame, undefined]) {
        const { labels } = await generateLabels(summary, RULES_CONTEXT, rows);
        assert.deepEqual([labels[0].column, labels[0].model_type], [column, modelType], `${file}${rows ? '' : ' (summary only)'}`);
      }
    }
  });

  it('picks nothing from an empty list', () => {
    assert.equal(pickLabel([]), null);
  });
});

describe('autotrain goals (rules)', () => {
  it('covers different chart kinds first, with exact column names (penguins.csv)', async () => {
    const { frame, summary } = await ruleSummary('penguins.csv');
    const result = await generateGoals(summary, 6, RULES_CONTEXT, { frame });
    assert.equal(result.source, 'rules');
    assert.deepEqual(result.goals.map((g) => g.visualization), [
      'histogram of Body Mass (g)',
      'bar chart of class balance of Species',
      'scatter plot of Body Mass (g) vs Flipper Length (mm)',
      'bar chart of mean Flipper Length (mm) by Species',
      'box plot of Beak Length (mm) by Species',
      'heatmap of correlations between Beak Length (mm), Beak Depth (mm), Flipper Length (mm), Body Mass (g)',
    ]);
    assert.deepEqual(result.goals.map((g) => g.index), [0, 1, 2, 3, 4, 5]);
    const balance = result.goals[1];
    assert.deepEqual([balance.target_column, balance.model_type], ['Species', 'classifier']);
    assert.match(balance.rationale, /Species is the most likely training target \(3 classes\): 'Adelie' is 44\.2% of the labelled rows and 'Chinstrap' 19\.8%/);
    for (const goal of result.goals) {
      assert.equal(GoalSchema.safeParse(goal).success, true);
      for (const c of goal.columns) assert.ok(summary.field_names.includes(c), `${c} is not a column`);
    }
  });

  it('names the most correlated numeric pair in the scatter goal (cars.csv: r = 0.952)', async () => {
    const { frame, summary } = await ruleSummary('cars.csv');
    const { goals } = await generateGoals(summary, 6, RULES_CONTEXT, { frame });
    const scatter = goals.find((g) => g.visualization.startsWith('scatter'));
    assert.deepEqual(scatter?.columns, ['Displacement', 'Cylinders']);
    assert.match(scatter?.rationale ?? '', /r = 0\.952/);
    assert.ok(goals.some((g) => g.visualization === 'line chart of Displacement over Year'));
  });

  it('changes only the wording for a persona', async () => {
    const { summary } = await ruleSummary('seattle-weather.csv');
    const plain = await generateGoals(summary, 3, RULES_CONTEXT);
    const persona = await generateGoals(summary, 3, RULES_CONTEXT, { persona: 'a city planner' });
    assert.deepEqual(persona.goals.map((g) => g.visualization), plain.goals.map((g) => g.visualization));
    assert.ok(persona.goals.every((g) => g.rationale.startsWith('For a city planner: ')));
  });
});

describe('autotrain feature engineering (rules)', () => {
  it('recommends valid steps that the engine can fit, leaving the likely label alone (penguins.csv)', async () => {
    const { frame, summary } = await ruleSummary('penguins.csv');
    const { recommendations, source } = await generateFeatureEngineering(summary, 10, RULES_CONTEXT, { frame });
    assert.equal(source, 'rules');
    assert.deepEqual(recommendations.map((r) => r.step), [
      { type: 'fill_missing', column: 'Sex', strategy: 'mode' },
      { type: 'fill_missing', column: 'Beak Length (mm)', strategy: 'median' },
      { type: 'fill_missing', column: 'Beak Depth (mm)', strategy: 'median' },
      { type: 'fill_missing', column: 'Flipper Length (mm)', strategy: 'median' },
      { type: 'fill_missing', column: 'Body Mass (g)', strategy: 'median' },
      { type: 'ratio', numerator: 'Beak Length (mm)', denominator: 'Beak Depth (mm)', name: 'Beak Length (mm) / Beak Depth (mm)' },
      { type: 'ratio', numerator: 'Beak Length (mm)', denominator: 'Flipper Length (mm)', name: 'Beak Length (mm) / Flipper Length (mm)' },
      { type: 'ratio', numerator: 'Beak Length (mm)', denominator: 'Body Mass (g)', name: 'Beak Length (mm) / Body Mass (g)' },
      { type: 'ratio', numerator: 'Beak Depth (mm)', denominator: 'Flipper Length (mm)', name: 'Beak Depth (mm) / Flipper Length (mm)' },
      { type: 'ratio', numerator: 'Beak Depth (mm)', denominator: 'Body Mass (g)', name: 'Beak Depth (mm) / Body Mass (g)' },
    ]);
    assert.ok(!recommendations.some((r) => JSON.stringify(r.step).includes('"Species"')), 'the likely label, Species, is left alone');
    for (const r of recommendations) assert.equal(RecommendationSchema.safeParse(r).success, true);
    const fitted = fitPreprocessor(frame, stepsFromRecommendations(recommendations, 'Species'));
    assert.equal(fitted.steps.length, 10);
  });

  it('drops mostly missing columns, splits dates, groups rare directors and offers no monotone transforms (movies.csv)', async () => {
    const { frame, summary } = await ruleSummary('movies.csv');
    const { recommendations } = await generateFeatureEngineering(summary, 30, RULES_CONTEXT, { frame });
    assert.deepEqual(recommendations[0].step, { type: 'drop_columns', columns: ['US DVD Sales', 'Running Time min'] });
    const types = recommendations.map((r) => r.step);
    assert.ok(types.some((s) => s.type === 'date_parts' && s.column === 'Release Date'));
    assert.ok(!types.some((s) => s.type === 'log1p' || s.type === 'quantile_bins' || s.type === 'clip'), 'a binned model splits a monotone transform where it split the column');
    assert.ok(types.some((s) => s.type === 'ratio'));
    assert.ok(types.some((s) => s.type === 'condense_categories' && s.column === 'Director'));
    const steps = stepsFromRecommendations(recommendations, 'IMDB Rating');
    assert.doesNotThrow(() => fitPreprocessor(frame, steps));
  });

  it('returns the requested number of suggestions when the data allows, none of them on flags or codes (cars.csv)', async () => {
    const { frame, summary } = await ruleSummary('cars.csv');
    const { recommendations } = await generateFeatureEngineering(summary, 5, RULES_CONTEXT, { frame });
    assert.equal(recommendations.length, 5);
    const codes = summary.fields.filter((f) => f.properties.dtype !== 'number' || f.properties.num_unique_values <= 10).map((f) => f.column);
    for (const r of recommendations) {
      if (r.step.type === 'ratio') assert.ok(!codes.includes(r.step.numerator) && !codes.includes(r.step.denominator), r.feature_name);
    }
  });

  it('keeps steps off the target, skips repeats and steps on dropped columns', () => {
    const steps = stepsFromRecommendations(
      [
        { step: { type: 'drop_columns', columns: ['id', 'y'] } },
        { step: { type: 'fill_missing', column: 'y', strategy: 'median' } },
        { step: { type: 'log1p', column: 'id' } },
        { step: { type: 'log1p', column: 'x' } },
        { step: { type: 'log1p', column: 'x' } },
        { step: { type: 'ratio', numerator: 'x', denominator: 'y', name: 'x / y' } },
      ],
      'y',
    );
    assert.deepEqual(steps, [
      { type: 'drop_columns', columns: ['id'] },
      { type: 'log1p', column: 'x' },
    ]);
  });

  it('returns the same recommendations on every run', async () => {
    const { frame, summary } = await ruleSummary('cars.csv');
    const a = await generateFeatureEngineering(summary, 5, RULES_CONTEXT, { frame });
    const b = await generateFeatureEngineering(summary, 5, RULES_CONTEXT, { frame });
    assert.equal(JSON.stringify(a), JSON.stringify(b));
  });
});
