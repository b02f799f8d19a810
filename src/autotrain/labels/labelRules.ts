import type { DatasetSummary, Label, SummaryField } from '../../contract/autotrain';
import type { RequestModelType } from '../../contract/common';
import { MAX_CLASSES, type DataFrame } from '../../engine';
import { labelEvidence, RARE_CLASS_SHARE, type LabelEvidence } from './labelEvidence';
import { AMOUNT_WORDS, followedOutcome, isAmountName, type OutcomeCandidate } from './consequence';
import { nameTokens } from '../columns/semantic';
import { fmt, round } from '../columns/stats';
import { rareLabelClasses, scarceClassesText, scarceRowsText } from './trainingSplit';

type SummaryShape = Pick<DatasetSummary, 'rows' | 'columns' | 'missing_values' | 'fields'>;

/** Name words of outcomes: what is predicted (statuses, results, events, severities) and what is counted or paid. */
const TARGET_KEYWORDS = new Set([
  'churn', 'churned', 'target', 'label', 'outcome', 'class', 'default', 'fraud', 'survived', 'survival', 'status', 'converted',
  'price', 'sales', 'result', 'response', 'diagnosis', 'damage', 'severity', 'visits', 'admissions', 'claims', 'charges', 'cost',
  'amount', 'revenue', 'count', 'rating', 'quality', 'grade', 'risk', 'disease', 'readmitted', 'attrition', 'approved',
  'success', 'y', 'species', 'delay', 'delayed', 'cancelled', 'canceled', 'failure', 'injury', 'injuries', 'mortality', 'death',
  'deaths', 'died', 'yield', 'demand', 'salary', 'wage', 'clicked', 'purchased', 'subscribed',
]);
/** Outcome words that count events: a whole-number column so named is a count to predict, however few its values. */
const COUNT_KEYWORDS = new Set(['visits', 'admissions', 'claims', 'count', 'injuries', 'deaths']);
/** Names that say outright that the column is what a model predicts. */
const EXPLICIT_TARGET_WORDS = new Set(['target', 'label', 'outcome', 'response', 'y']);
/** A 'y' beside an 'x' or a 'z' is a coordinate, not a target. */
const COORDINATE_NAMES = new Set(['x', 'z']);
const NOT_TARGET_SEMANTICS = new Set(['id', 'email', 'url', 'ip address', 'zip code', 'year', 'latitude', 'longitude']);
/** Columns that say where or who a row is: usually features that describe the row, not outcomes. */
const DESCRIPTOR_SEMANTICS = new Set(['location', 'country', 'city', 'gender']);
/** Name words of who a row is, besides genders: "marital status" describes a person; it is no outcome status. */
const DESCRIPTOR_WORDS = new Set(['marital', 'race', 'ethnicity', 'religion', 'nationality', 'occupation']);
const CLASSIFIER_SCORE = 0.5;
const MANY_CLASSES_SCORE = 0.3;
const CONTINUOUS_SCORE = 0.45;
const ORDINAL_SCORE = 0.3;
const KEYWORD_BONUS = 0.3;
/** An amount (cost, charges) is what an outcome cost more often than the outcome itself: a smaller bonus. */
const AMOUNT_KEYWORD_BONUS = 0.2;
const EXPLICIT_BONUS = 0.45;
/** Tables keep their outcome at an edge: last (most often) or first, after identifiers and dates. */
const LAST_COLUMN_BONUS = 0.1;
const FIRST_COLUMN_BONUS = 0.08;
const MISSING_PENALTY = 0.3;
const RARE_CLASS_PENALTY = 0.35;
const LEAK_PENALTY = 0.45;
const CONSEQUENCE_PENALTY = 0.35;
const DESCRIPTOR_PENALTY = 0.2;
const NUMERIC_TWIN_PENALTY = 0.2;
/** A multiclass column all of whose classes are too small to learn or judge; a share of it for each such class. */
const THIN_CLASSES_PENALTY = 0.2;
/** Numbers with more distinct values than this are continuous; fewer are ordinal levels. */
const CONTINUOUS_LEVELS = 10;
/** Categories with more classes than this leave few rows per class: a weaker label. */
const FEW_CLASSES = 10;

/** Why a column can or cannot be a label for the classifier / regressor engine. */
export type Trainability =
  | { ok: true; model_type: Label['model_type']; base: number; kind: string }
  | { ok: false; reason: string; tooManyClasses: boolean };

/** Whether the engine trains a model of this type on a target with this many distinct values. */
export function canTrainTarget(modelType: RequestModelType, distinctValues: number): { ok: true } | { ok: false; reason: string } {
  if (modelType === 'classifier' && distinctValues > MAX_CLASSES) {
    return { ok: false, reason: `it has ${distinctValues} classes and a classifier takes at most ${MAX_CLASSES}` };
  }
  return { ok: true };
}

/** The model type a target column calls for: regression on a number with more than two values, else classification. */
export function targetModelType(field: SummaryField | undefined): RequestModelType {
  return field && field.properties.dtype === 'number' && field.properties.num_unique_values > 2 ? 'regressor' : 'classifier';
}

/** Whether a numeric column holds whole numbers from 0 up (judged from its range and samples). */
function isCount(p: SummaryField['properties']): boolean {
  const whole = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
  return p.dtype === 'number' && whole(p.min) && whole(p.max) && (p.min as number) >= 0 && p.samples.every(whole);
}

/** A run of consecutive whole numbers, one per row ("rownames", "instant"): a row number, whatever its name. */
function isRowNumber(field: SummaryField, missing: number, rows: number): boolean {
  const p = field.properties;
  return isCount(p) && rows > 2 && missing === 0 && p.num_unique_values === rows && (p.max as number) - (p.min as number) + 1 === rows;
}

/**
 * Whether a column can be a label and of which kind, with the kind's base score. `keyword`: the outcome word of its
 * name, which makes a number with few levels (visits, quality) a count or a score to predict rather than a code.
 */
export function trainability(field: SummaryField, missing: number, rows: number, keyword?: string): Trainability {
  const p = field.properties;
  if (p.num_unique_values <= 1) return { ok: false, reason: 'it is constant', tooManyClasses: false };
  if (p.dtype === 'date') return { ok: false, reason: 'it is a date', tooManyClasses: false };
  if (p.dtype === 'string') return { ok: false, reason: 'it is free text', tooManyClasses: false };
  if (NOT_TARGET_SEMANTICS.has(p.semantic_type)) return { ok: false, reason: `it is an identifier-like ${p.semantic_type}`, tooManyClasses: false };
  if (isRowNumber(field, missing, rows)) return { ok: false, reason: 'it numbers the rows', tooManyClasses: false };
  if (rows > 0 && missing / rows > 0.5) return { ok: false, reason: 'more than half of its values are missing', tooManyClasses: false };
  if (p.num_unique_values === 2 || p.dtype === 'boolean') {
    return { ok: true, model_type: 'classifier', base: CLASSIFIER_SCORE, kind: 'binary classification' };
  }
  if (p.dtype === 'number') {
    if (isCount(p) && (p.semantic_type === 'count' || (keyword !== undefined && COUNT_KEYWORDS.has(keyword)))) {
      return { ok: true, model_type: 'regressor', base: CONTINUOUS_SCORE, kind: 'regression on a count' };
    }
    if (p.num_unique_values > CONTINUOUS_LEVELS) return { ok: true, model_type: 'regressor', base: CONTINUOUS_SCORE, kind: 'regression on a continuous value' };
    const base = keyword ? CONTINUOUS_SCORE : ORDINAL_SCORE;
    return { ok: true, model_type: 'regressor', base, kind: `regression on ${p.num_unique_values} ordered levels` };
  }
  const classes = canTrainTarget('classifier', p.num_unique_values);
  if (!classes.ok) return { ok: false, reason: classes.reason, tooManyClasses: true };
  const base = p.num_unique_values > FEW_CLASSES ? MANY_CLASSES_SCORE : CLASSIFIER_SCORE;
  return { ok: true, model_type: 'classifier', base, kind: `multiclass classification into ${p.num_unique_values} classes` };
}

interface Candidate extends Label {
  index: number;
}

/** What ranks a candidate, besides its kind: its name, where it sits, and what its rows say. */
interface Standing {
  keyword: string | undefined;
  edge: 'first' | 'last' | null;
  evidence: LabelEvidence;
  numericTwin: string | undefined;
  consequence: string | null;
}

function isRare(evidence: LabelEvidence): boolean {
  return evidence.minorityShare !== null && evidence.minorityShare < RARE_CLASS_SHARE;
}

function isDescriptor(field: SummaryField): boolean {
  return DESCRIPTOR_SEMANTICS.has(field.properties.semantic_type) || nameTokens(field.column).some((t) => DESCRIPTOR_WORDS.has(t));
}

function percent(share: number): string {
  return `${fmt(round(100 * share, share < 0.01 ? 2 : 1))}%`;
}

function score(field: SummaryField, t: Extract<Trainability, { ok: true }>, missing: number, rows: number, s: Standing): number {
  const { evidence } = s;
  const classes = field.properties.num_unique_values;
  const keywordBonus = !s.keyword ? 0 : EXPLICIT_TARGET_WORDS.has(s.keyword) ? EXPLICIT_BONUS : AMOUNT_WORDS.has(s.keyword) ? AMOUNT_KEYWORD_BONUS : KEYWORD_BONUS;
  const edgeBonus = s.edge === 'last' ? LAST_COLUMN_BONUS : s.edge === 'first' ? FIRST_COLUMN_BONUS : 0;
  return (
    t.base +
    keywordBonus +
    edgeBonus -
    (MISSING_PENALTY * missing) / Math.max(1, rows) -
    (isRare(evidence) ? RARE_CLASS_PENALTY : 0) -
    (evidence.thin ? (THIN_CLASSES_PENALTY * evidence.thin.classes) / classes : 0) -
    (evidence.leak ? LEAK_PENALTY : 0) -
    (s.consequence ? CONSEQUENCE_PENALTY : 0) -
    (s.numericTwin ? NUMERIC_TWIN_PENALTY : 0) -
    (isDescriptor(field) ? DESCRIPTOR_PENALTY : 0)
  );
}

function reasoningFor(field: SummaryField, t: Extract<Trainability, { ok: true }>, missing: number, rows: number, s: Standing): string {
  const p = field.properties;
  const { evidence, keyword } = s;
  const values = t.model_type === 'classifier'
    ? `has ${p.num_unique_values} values (${p.samples.map(String).join(', ')})`
    : `is numeric from ${fmt(p.min as number)} to ${fmt(p.max as number)} with ${p.num_unique_values} distinct values`;
  const parts = [`'${field.column}' ${values}, so it suits ${t.kind} (${t.model_type}).`];
  if (keyword) parts.push(`Its name contains the target keyword '${keyword}'.`);
  if (s.edge) parts.push(`It is the ${s.edge} column of the table after identifiers and dates, where tables often keep their outcome.`);
  if (s.numericTwin) parts.push(`'${s.numericTwin}' measures the same '${keyword}' as a number, which keeps more of it to learn.`);
  if (missing > 0) parts.push(`${missing} of ${rows} rows (${fmt(round((100 * missing) / rows, 1))}%) have no value and are not usable for training.`);
  if (isRare(evidence)) {
    parts.push(`Its rarer value is only ${fmt(round(100 * (evidence.minorityShare as number), 1))}% of the rows, so a classifier tends to predict the majority value.`);
  }
  if (evidence.thin && !evidence.scarce.length) {
    const { value, count, share } = evidence.thin.smallest;
    parts.push(`Its smallest class '${value}' has only ${count} row${count === 1 ? '' : 's'} (${percent(share)}): too few to learn it or to judge how well it is predicted.`);
  }
  if (evidence.leak) parts.push(`Probably not an outcome to predict: ${evidence.leak}, so it would leak into its own features.`);
  if (s.consequence) parts.push(`Probably a consequence of an outcome rather than one: ${s.consequence}; predict that outcome instead.`);
  if (isDescriptor(field)) parts.push(`It says where or who a row is (${p.semantic_type}), which usually describes the row rather than an outcome.`);
  if (evidence.scarce.length) {
    parts.push(`Its ${scarceClassesText(evidence.scarce)}: training it leaves out ${scarceRowsText(evidence.scarce)} (rare_classes "drop"), as if the label were missing there.`);
  }
  return parts.join(' ');
}

/**
 * The candidate's outcome word, if its name has one, an event before an amount ("Effect Amount of damage" → damage);
 * none for a column that says who a row is, and a 'y' beside an 'x' or 'z' column is a coordinate.
 */
function keywordFinder(summary: SummaryShape): (field: SummaryField) => string | undefined {
  const coordinates = summary.fields.some((f) => COORDINATE_NAMES.has(f.column.trim().toLowerCase()));
  return (field) => {
    if (isDescriptor(field)) return undefined;
    const words = nameTokens(field.column).filter((w) => TARGET_KEYWORDS.has(w) && !(w === 'y' && coordinates));
    return words.find((w) => !AMOUNT_WORDS.has(w)) ?? words[0];
  };
}

/** The first and last columns of the table that are neither identifiers, row numbers, free text nor dates. */
function layoutEdges(summary: SummaryShape): { first: string | undefined; last: string | undefined } {
  const laidOut = summary.fields.filter(
    (f) =>
      f.properties.semantic_type !== 'id' &&
      f.properties.dtype !== 'string' &&
      f.properties.dtype !== 'date' &&
      !isRowNumber(f, summary.missing_values[f.column] ?? 0, summary.rows),
  );
  return { first: laidOut[0]?.column, last: laidOut[laidOut.length - 1]?.column };
}

/**
 * Label candidates from rules (autotrain.md §7.3), best first: categories of 2 to 50 values → classifier (binary or
 * multiclass), numeric columns → regressor (a whole-number column named as an outcome, such as visits, as a count);
 * ids, constants, dates, free text and categories of more than 50 values are left out (the reasoning of the first
 * candidate names the latter). Outcome-like names rank higher, and so do the last and the first column of the table;
 * places and genders, categories of many classes and categories named like a numeric candidate lower. With the rows,
 * binary columns with a rare class, multiclass columns whose smallest class is too small to learn or judge (more so
 * when classes must be left out to train), columns computed from other columns (leaks) and amounts that follow an
 * outcome-named category (costs of a damage) rank lower.
 */
export function rankLabelCandidates(summary: SummaryShape, frame?: DataFrame): Label[] {
  const candidates: Candidate[] = [];
  const tooManyClasses: string[] = [];
  const keywordOf = keywordFinder(summary);
  const edges = layoutEdges(summary);
  const trainable = (f: SummaryField) => trainability(f, summary.missing_values[f.column] ?? 0, summary.rows, keywordOf(f));
  const trainabilities = new Map(summary.fields.map((f) => [f.column, trainable(f)]));
  // A category named like a numeric target ("MPAA Rating" beside "IMDB Rating") is the weaker of the two.
  const numericByKeyword = new Map<string, string>();
  const outcomes: OutcomeCandidate[] = [];
  for (const f of summary.fields) {
    const t = trainabilities.get(f.column) as Trainability;
    const keyword = keywordOf(f);
    if (!t.ok || !keyword) continue;
    if (t.model_type === 'regressor' && !numericByKeyword.has(keyword)) numericByKeyword.set(keyword, f.column);
    if (t.model_type === 'classifier' && !AMOUNT_WORDS.has(keyword)) outcomes.push({ column: f.column, keyword });
  }
  summary.fields.forEach((field, index) => {
    const missing = summary.missing_values[field.column] ?? 0;
    const t = trainabilities.get(field.column) as Trainability;
    if (!t.ok) {
      if (t.tooManyClasses) tooManyClasses.push(`'${field.column}' (${field.properties.num_unique_values} classes)`);
      return;
    }
    const keyword = keywordOf(field);
    const standing: Standing = {
      keyword,
      edge: field.column === edges.last ? 'last' : field.column === edges.first ? 'first' : null,
      evidence: labelEvidence(summary, frame, field),
      numericTwin: t.model_type === 'classifier' && keyword ? numericByKeyword.get(keyword) : undefined,
      consequence: t.model_type === 'regressor' && isAmountName(field.column) ? followedOutcome(frame, field.column, outcomes) : null,
    };
    const { scarce } = standing.evidence;
    candidates.push({
      index,
      column: field.column,
      model_type: t.model_type,
      confidence: round(Math.min(0.95, Math.max(0.01, score(field, t, missing, summary.rows, standing))), 2),
      reasoning: reasoningFor(field, t, missing, summary.rows, standing),
      alternatives: [],
      ...(scarce.length ? { rare_classes: rareLabelClasses(scarce) } : {}),
    });
  });
  // Ties go to the later column: outcomes sit at the end of a table more often than at its start.
  candidates.sort((a, b) => b.confidence - a.confidence || b.index - a.index);
  // The best three others, found from the top of the ranking: a summary may have thousands of candidates.
  const alternativesTo = (column: string) => {
    const others: string[] = [];
    for (let i = 0; i < candidates.length && others.length < 3; i++) if (candidates[i].column !== column) others.push(candidates[i].column);
    return others;
  };
  return candidates.map(({ index: _index, ...label }, i) => ({
    ...label,
    reasoning:
      i === 0 && tooManyClasses.length
        ? `${label.reasoning} Not offered: ${tooManyClasses.join(', ')}, because a classifier takes at most ${MAX_CLASSES} classes.`
        : label.reasoning,
    alternatives: alternativesTo(label.column),
  }));
}
