import assert from 'node:assert/strict';
import { DatasetSummarySchema } from '../../../../src/contract/autotrain';
import { DataFrame, categoryColumn, numberColumn } from '../../../../src/engine';
import { RULES_CONTEXT, summarizeDataset, summaryRules } from '../../../../src/autotrain';
import { ruleSummary } from '../helpers';

const INFO = { dataset_id: null, name: 'fixture', file_name: 'fixture.csv' };

function field(summary: { fields: { column: string; properties: Record<string, unknown> }[] }, column: string): Record<string, unknown> {
  const f = summary.fields.find((x) => x.column === column);
  assert.ok(f, `no field ${column}`);
  return f.properties;
}

describe('autotrain summary (rules)', () => {
  it('reports the shape, dtypes and missing counts of penguins.csv', async () => {
    const { summary } = await ruleSummary('penguins.csv');
    assert.equal(summary.rows, 344);
    assert.deepEqual(summary.columns, ['Species', 'Island', 'Beak Length (mm)', 'Beak Depth (mm)', 'Flipper Length (mm)', 'Body Mass (g)', 'Sex']);
    assert.deepEqual(summary.field_names, summary.columns);
    assert.deepEqual(summary.dtypes, {
      Species: 'category',
      Island: 'category',
      'Beak Length (mm)': 'number',
      'Beak Depth (mm)': 'number',
      'Flipper Length (mm)': 'number',
      'Body Mass (g)': 'number',
      Sex: 'category',
    });
    assert.deepEqual(summary.missing_values, {
      Species: 0,
      Island: 0,
      'Beak Length (mm)': 2,
      'Beak Depth (mm)': 2,
      'Flipper Length (mm)': 2,
      'Body Mass (g)': 2,
      Sex: 10,
    });
    assert.equal(DatasetSummarySchema.safeParse(summary).success, true);
  });

  it('computes the LIDA statistics of numeric and categorical fields', async () => {
    const { summary } = await ruleSummary('penguins.csv');
    const mass = field(summary, 'Body Mass (g)');
    assert.equal(mass.min, 2700);
    assert.equal(mass.max, 6300);
    assert.equal(mass.num_unique_values, 94);
    assert.ok(Math.abs((mass.mean as number) - 4201.754385964912) < 1e-9);
    assert.ok(Math.abs((mass.std as number) - 801.9545356980955) < 1e-9);
    assert.deepEqual(mass.samples, [3750, 3800, 3250]);
    const beak = field(summary, 'Beak Length (mm)');
    assert.ok(Math.abs((beak.std as number) - 5.4595837139265315) < 1e-9);
    const species = field(summary, 'Species');
    assert.deepEqual(species.samples, ['Adelie', 'Chinstrap', 'Gentoo']);
    assert.equal(species.num_unique_values, 3);
    assert.equal(species.description, "Categorical column 'Species' with 3 levels (most common 'Adelie'), 0 missing.");
    assert.equal(field(summary, 'Sex').semantic_type, 'gender');
    assert.equal(field(summary, 'Island').semantic_type, 'location');
    assert.match(summary.dataset_description, /^penguins\.csv: 344 rows × 7 columns \(3 category, 4 number\); 18 missing values\. Likely targets: 'Species' \(classifier\), 'Body Mass \(g\)' \(regressor\)/);
  });

  it('gives dates ISO min and max (seattle-weather.csv)', async () => {
    const { summary } = await ruleSummary('seattle-weather.csv');
    assert.equal(summary.rows, 1461);
    const date = field(summary, 'date');
    assert.equal(date.dtype, 'date');
    assert.equal(date.semantic_type, 'date');
    assert.equal(date.min, '2012-01-01');
    assert.equal(date.max, '2015-12-31');
    assert.equal(field(summary, 'weather').num_unique_values, 5);
  });

  it('is byte-identical between runs', async () => {
    const a = await ruleSummary('movies.csv');
    const b = await ruleSummary('movies.csv');
    assert.equal(JSON.stringify(a.summary), JSON.stringify(b.summary));
  });

  it('calls a column a date only when every value matches an explicit date pattern', async () => {
    const frame = DataFrame.fromRecords([
      { version: '6.4.3', day: '31/12/2020', mixed: '2020-01-01', yes: 'yes' },
      { version: '6.4.4', day: '01/02/2021', mixed: 'soon', yes: 'No' },
      { version: '7.0.0', day: '15/06/2021', mixed: '2021-03-04', yes: 'YES' },
    ]);
    const summary = await summarizeDataset(frame, INFO, RULES_CONTEXT);
    assert.equal(summary.dtypes.version, 'string');
    assert.equal(summary.dtypes.day, 'date');
    assert.equal(field(summary, 'day').min, '2020-12-31');
    assert.equal(field(summary, 'day').max, '2021-06-15');
    assert.equal(summary.dtypes.mixed, 'string');
    assert.equal(summary.dtypes.yes, 'boolean');
  });

  it('tells categories from free text by the share of distinct values, and detects ids and emails', async () => {
    const records = Array.from({ length: 10 }, (_, i) => ({
      customer_id: `C-${1000 + i}`,
      plan: i % 3 === 0 ? 'basic' : 'pro',
      email: `user${i}@example.com`,
      note: `free text number ${i}`,
    }));
    const summary = await summarizeDataset(DataFrame.fromRecords(records), INFO, RULES_CONTEXT);
    assert.equal(summary.dtypes.plan, 'category');
    assert.equal(summary.dtypes.note, 'string');
    assert.equal(field(summary, 'customer_id').semantic_type, 'id');
    assert.equal(field(summary, 'email').semantic_type, 'email');
  });

  it('keeps the configuration warning when the provider cannot be used', async () => {
    const frame = DataFrame.fromRecords([{ a: 1 }, { a: 2 }]);
    const summary = await summarizeDataset(frame, INFO, { llm: null, warnings: ['provider "azure" needs base_url'] });
    assert.deepEqual(summary.warnings, ['provider "azure" needs base_url']);
  });

  it('summarises numeric columns from their numbers as it does the same values read as text', () => {
    const columns: Record<string, number[]> = {
      amount: [2.5, -0, 0, NaN, 7, 2.5, -13.25, 1e21, NaN, 0.1 + 0.2, 7, 4],
      customer_id: [5, 3, 11, 8, 2, 13, 1, 21, 34, 55, 89, 144],
      year: [1999, 2001, NaN, 2001, 2020, 1999, 1999, 2024, 2003, 2003, 2010, 2011],
      empty: Array.from({ length: 12 }, () => NaN),
    };
    const asText = (name: string, values: number[]) => {
      const levels = [...new Set(values.filter((v) => !Number.isNaN(v)).map(String))];
      return categoryColumn(name, Int32Array.from(values, (v) => (Number.isNaN(v) ? -1 : levels.indexOf(String(v)))), levels);
    };
    const numeric = summaryRules(new DataFrame(Object.entries(columns).map(([name, values]) => numberColumn(name, Float64Array.from(values)))));
    const textual = summaryRules(new DataFrame(Object.entries(columns).map(([name, values]) => asText(name, values))));
    assert.deepEqual(numeric.fields.slice(0, 3), textual.fields.slice(0, 3));
    assert.deepEqual(numeric.missing_values, textual.missing_values);
    assert.equal(field(numeric, 'customer_id').semantic_type, 'id');
    // −0 and 0 read alike.
    assert.equal(field(numeric, 'amount').num_unique_values, 7);
  });
});
