import type { DatasetSummary, Recommendation, SummaryField } from '../../contract/autotrain';
import type { PreprocessorStep } from '../../contract/datasets';
import type { DataFrame } from '../../engine';
import { columnTexts, isAmbiguousDate } from '../columns/columns';
import { isNumericField, MAX_LEVELS } from '../columns/fieldRoles';
import { rankLabelCandidates } from '../labels/labelRules';
import { nameTokens } from '../columns/semantic';
import { fmt, round } from '../columns/stats';

type Draft = Omit<Recommendation, 'index'>;

const CONDENSE_MIN_FREQ = 0.01;
/** Ratios beyond these add little and crowd out other suggestions. */
const MAX_RATIOS = 6;
/** Numbers with at most this many distinct values are codes or counts of few levels, not measurements to combine. */
const CODE_LEVELS = 10;
/** Columns missing in more than this share of rows are dropped rather than filled. */
const MOSTLY_MISSING = 0.5;
/** Name words too generic to say two columns measure related things. */
const GENERIC_TOKENS = new Set(['mm', 'cm', 'm', 'km', 'g', 'kg', 'lbs', 'in', 'min', 'max', 'per', 'of', 'the', 'a', 'us', 'time', 'date', 'total', 'num']);

/** A number with enough distinct values to be a measurement, not a binary flag or a code of a few levels. */
export function isMeasureField(f: SummaryField): boolean {
  return isNumericField(f) && f.properties.num_unique_values > CODE_LEVELS;
}

/** Every column a step reads or writes. */
export function stepColumns(step: PreprocessorStep): string[] {
  switch (step.type) {
    case 'drop_columns':
      return step.columns;
    case 'ratio':
      return [step.numerator, step.denominator, step.name];
    default:
      return [step.column];
  }
}

function dropRecommendation(summary: DatasetSummary, target: string | undefined): Draft[] {
  const ids = summary.fields.filter((f) => f.properties.semantic_type === 'id').map((f) => f.column);
  const constants = summary.fields.filter((f) => f.properties.num_unique_values <= 1).map((f) => f.column);
  const sparse = summary.fields
    .filter((f) => f.properties.num_unique_values > 1 && (summary.missing_values[f.column] ?? 0) > MOSTLY_MISSING * summary.rows)
    .map((f) => f.column);
  const columns = [...new Set([...ids, ...constants, ...sparse])].filter((c) => c !== target);
  if (!columns.length) return [];
  const why = [
    ids.length ? `${ids.length} identifier column(s)` : '',
    constants.length ? `${constants.length} constant or empty column(s)` : '',
    sparse.length ? `${sparse.length} mostly missing column(s)` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return [{
    feature_name: 'drop_uninformative_columns',
    description: `Drop ${columns.map((c) => `'${c}'`).join(', ')}: ${why} carry no signal a model can generalise from.`,
    columns,
    step: { type: 'drop_columns', columns },
    expected_impact: 'Removes noise, and stops the model memorising row identifiers or learning from filled-in guesses.',
    complexity: 'low',
  }];
}

function fillRecommendations(summary: DatasetSummary, skip: Set<string>): Draft[] {
  return summary.fields
    .map((f, i) => ({ f, i, missing: summary.missing_values[f.column] ?? 0 }))
    .filter(({ f, missing }) => missing > 0 && missing < summary.rows && !skip.has(f.column) && ['number', 'category', 'boolean'].includes(f.properties.dtype))
    .sort((a, b) => b.missing - a.missing || a.i - b.i)
    .map(({ f, missing }) => {
      const strategy = f.properties.dtype === 'number' ? 'median' : 'mode';
      return {
        feature_name: `${f.column}_filled`,
        description: `Fill the ${missing} missing values of '${f.column}' (${fmt(round((100 * missing) / summary.rows, 1))}%) with the ${strategy}.`,
        columns: [f.column],
        step: { type: 'fill_missing', column: f.column, strategy },
        expected_impact: 'Keeps the rows usable and makes missingness explicit in one value instead of a separate bin.',
        complexity: 'low',
      };
    });
}

function datePartRecommendations(summary: DatasetSummary, skip: Set<string>): Draft[] {
  return summary.fields
    // The engine reads ISO and month-name dates; a/b/yyyy dates would need their order guessed, so they get no step.
    .filter((f) => f.properties.dtype === 'date' && !skip.has(f.column) && !f.properties.samples.some((v) => isAmbiguousDate(String(v))))
    .map((f) => {
      const hasTime = [f.properties.min, f.properties.max].some((v) => typeof v === 'string' && v.includes('T'));
      const parts: ('year' | 'month' | 'weekday' | 'hour')[] = hasTime ? ['year', 'month', 'weekday', 'hour'] : ['year', 'month', 'weekday'];
      return {
        feature_name: `${f.column}_parts`,
        description: `Split '${f.column}' into ${parts.join(', ')} so seasonality and weekly patterns become features.`,
        columns: [f.column],
        step: { type: 'date_parts', column: f.column, parts },
        expected_impact: 'Turns a raw timestamp, which a model cannot use directly, into periodic features.',
        complexity: 'low',
      };
    });
}

function condenseRecommendations(summary: DatasetSummary, skip: Set<string>): Draft[] {
  return summary.fields
    .filter((f) => !skip.has(f.column) && f.properties.semantic_type !== 'id' && ['category', 'string'].includes(f.properties.dtype) && f.properties.num_unique_values > MAX_LEVELS)
    .filter((f) => f.properties.num_unique_values < 0.9 * Math.max(1, summary.rows - (summary.missing_values[f.column] ?? 0)))
    .map((f) => ({
      feature_name: `${f.column}_condensed`,
      description: `Group the rare levels of '${f.column}' (${f.properties.num_unique_values} levels) that cover less than ${CONDENSE_MIN_FREQ * 100}% of rows each into one level.`,
      columns: [f.column],
      step: { type: 'condense_categories', column: f.column, min_freq: CONDENSE_MIN_FREQ },
      expected_impact: 'Rare levels get unreliable estimates; condensing them reduces overfitting.',
      complexity: 'medium',
    }));
}

/** Text columns whose levels collapse when lower-cased and trimmed (needs the rows). */
function textCleanRecommendations(summary: DatasetSummary, frame: DataFrame | undefined, skip: Set<string>): Draft[] {
  if (!frame) return [];
  return summary.fields
    .filter((f) => !skip.has(f.column) && ['category', 'string'].includes(f.properties.dtype) && frame.has(f.column))
    .filter((f) => {
      const col = frame.column(f.column);
      const raw = col.storage === 'category' ? col.levels.filter((l) => l !== '') : columnTexts(col).filter((t): t is string => t !== null);
      return new Set(raw.map((l) => l.trim().toLowerCase())).size < new Set(raw).size;
    })
    .map((f) => ({
      feature_name: `${f.column}_clean`,
      description: `Lower-case and trim '${f.column}': some of its levels differ only in case or surrounding spaces.`,
      columns: [f.column],
      step: { type: 'text_clean', column: f.column, lower: true, trim: true },
      expected_impact: 'Merges spellings of the same level so their rows are counted together.',
      complexity: 'low',
    }));
}

/** Numeric pairs whose names share a word come first: they measure related things, so their proportion means something. */
function ratioRecommendations(measures: SummaryField[]): Draft[] {
  const words = measures.map((m) => nameTokens(m.column).filter((t) => !GENERIC_TOKENS.has(t)));
  const wordSets = words.map((w) => new Set(w));
  // The first pairs of each kind, in order: a summary of thousands of measures has millions of pairs.
  const sharing: { a: SummaryField; b: SummaryField; shared: string | undefined }[] = [];
  const others: typeof sharing = [];
  for (let i = 0; i < measures.length && sharing.length < MAX_RATIOS; i++) {
    for (let j = i + 1; j < measures.length && sharing.length < MAX_RATIOS; j++) {
      if (!((measures[j].properties.min as number) > 0)) continue;
      const shared = words[i].find((t) => wordSets[j].has(t));
      if (shared !== undefined) sharing.push({ a: measures[i], b: measures[j], shared });
      else if (others.length < MAX_RATIOS) others.push({ a: measures[i], b: measures[j], shared });
    }
  }
  return [...sharing, ...others]
    .slice(0, MAX_RATIOS)
    .map(({ a, b, shared }) => {
      const name = `${a.column} / ${b.column}`;
      return {
        feature_name: name,
        description: shared
          ? `Add the ratio '${name}': both measure '${shared}', and their proportion can carry signal that neither has alone.`
          : `Add the ratio '${name}': a per-unit quantity that an additive model cannot build from the two columns separately.`,
        columns: [a.column, b.column],
        step: { type: 'ratio', numerator: a.column, denominator: b.column, name },
        expected_impact: 'Lets an additive per-feature model use an interaction between two measurements.',
        complexity: 'medium',
      };
    });
}

/**
 * Feature-engineering recommendations as preprocessor steps, in priority order (autotrain.md §7.4). The most likely
 * label is never transformed. Only steps that change what an additive model of binned features can learn are offered:
 * monotone transforms (log, quantile bins) leave its splits where they were, and codes are not measurements.
 */
export function ruleRecommendations(summary: DatasetSummary, frame: DataFrame | undefined): Recommendation[] {
  const target = rankLabelCandidates(summary)[0]?.column;
  const drops = dropRecommendation(summary, target);
  const skip = new Set([...(target ? [target] : []), ...drops.flatMap((d) => d.columns)]);
  const measures = summary.fields.filter((f) => isMeasureField(f) && !skip.has(f.column));
  const drafts = [
    ...drops,
    ...fillRecommendations(summary, skip),
    ...datePartRecommendations(summary, skip),
    ...condenseRecommendations(summary, skip),
    ...textCleanRecommendations(summary, frame, skip),
    ...ratioRecommendations(measures),
  ];
  return drafts.map((d, index) => ({ index, ...d }));
}
