import type { DatasetSummary, Label, SummaryField } from '../../contract/autotrain';
import type { RequestModelType } from '../../contract/common';
import { MAX_CLASSES, type DataFrame } from '../../engine';
import { labelEvidence, RARE_CLASS_SHARE, type LabelEvidence } from './labelEvidence';
import { nameTokens } from '../columns/semantic';
import { fmt, round } from '../columns/stats';
import { scarceClassesText } from './trainingSplit';

type SummaryShape = Pick<DatasetSummary, 'rows' | 'columns' | 'missing_values' | 'fields'>;

/** Name words of outcomes: what is predicted (statuses, results, severities) and what is counted or paid. */
const TARGET_KEYWORDS = [
  'churn', 'target', 'label', 'outcome', 'class', 'default', 'fraud', 'survived', 'status', 'converted', 'price', 'sales',
  'result', 'response', 'diagnosis', 'damage', 'severity', 'visits', 'admissions', 'claims', 'charges', 'cost', 'amount',
  'revenue', 'count', 'rating', 'quality', 'grade', 'risk', 'disease', 'readmitted', 'attrition', 'approved', 'success', 'y',
];
const NOT_TARGET_SEMANTICS = new Set(['id', 'email', 'url', 'ip address', 'zip code', 'year', 'latitude', 'longitude']);
/** Columns that say where or who a row is: usually features that describe the row, not outcomes. */
const DESCRIPTOR_SEMANTICS = new Set(['location', 'country', 'city', 'gender']);
const CLASSIFIER_SCORE = 0.55;
const MANY_CLASSES_SCORE = 0.3;
const CONTINUOUS_SCORE = 0.4;
const ORDINAL_SCORE = 0.25;
const KEYWORD_BONUS = 0.3;
const POSITION_BONUS = 0.05;
const MISSING_PENALTY = 0.3;
const RARE_CLASS_PENALTY = 0.35;
const LEAK_PENALTY = 0.45;
const DESCRIPTOR_PENALTY = 0.2;
const NUMERIC_TWIN_PENALTY = 0.15;
/** Enough to rank a label that cannot be trained below every one that can. */
const UNTRAINABLE_PENALTY = 1;
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

export function trainability(field: SummaryField, missing: number, rows: number): Trainability {
  const p = field.properties;
  if (p.num_unique_values <= 1) return { ok: false, reason: 'it is constant', tooManyClasses: false };
  if (p.dtype === 'date') return { ok: false, reason: 'it is a date', tooManyClasses: false };
  if (p.dtype === 'string') return { ok: false, reason: 'it is free text', tooManyClasses: false };
  if (NOT_TARGET_SEMANTICS.has(p.semantic_type)) return { ok: false, reason: `it is an identifier-like ${p.semantic_type}`, tooManyClasses: false };
  if (rows > 0 && missing / rows > 0.5) return { ok: false, reason: 'more than half of its values are missing', tooManyClasses: false };
  if (p.num_unique_values === 2 || p.dtype === 'boolean') {
    return { ok: true, model_type: 'classifier', base: CLASSIFIER_SCORE, kind: 'binary classification' };
  }
  if (p.dtype === 'number') {
    return p.num_unique_values > CONTINUOUS_LEVELS
      ? { ok: true, model_type: 'regressor', base: CONTINUOUS_SCORE, kind: 'regression on a continuous value' }
      : { ok: true, model_type: 'regressor', base: ORDINAL_SCORE, kind: `regression on ${p.num_unique_values} ordered levels` };
  }
  const classes = canTrainTarget('classifier', p.num_unique_values);
  if (!classes.ok) return { ok: false, reason: classes.reason, tooManyClasses: true };
  const base = p.num_unique_values > FEW_CLASSES ? MANY_CLASSES_SCORE : CLASSIFIER_SCORE;
  return { ok: true, model_type: 'classifier', base, kind: `multiclass classification into ${p.num_unique_values} classes` };
}

interface Candidate extends Label {
  index: number;
}

function isRare(evidence: LabelEvidence): boolean {
  return evidence.minorityShare !== null && evidence.minorityShare < RARE_CLASS_SHARE;
}

function isDescriptor(field: SummaryField): boolean {
  return DESCRIPTOR_SEMANTICS.has(field.properties.semantic_type);
}

function reasoningFor(
  field: SummaryField,
  t: Extract<Trainability, { ok: true }>,
  missing: number,
  rows: number,
  keyword: string | undefined,
  evidence: LabelEvidence,
  numericTwin: string | undefined,
): string {
  const p = field.properties;
  const values = t.model_type === 'classifier'
    ? `has ${p.num_unique_values} values (${p.samples.map(String).join(', ')})`
    : `is numeric from ${fmt(p.min as number)} to ${fmt(p.max as number)} with ${p.num_unique_values} distinct values`;
  const parts = [`'${field.column}' ${values}, so it suits ${t.kind} (${t.model_type}).`];
  if (keyword) parts.push(`Its name contains the target keyword '${keyword}'.`);
  if (numericTwin) parts.push(`'${numericTwin}' measures the same '${keyword}' as a number, which keeps more of it to learn.`);
  if (missing > 0) parts.push(`${missing} of ${rows} rows (${fmt(round((100 * missing) / rows, 1))}%) have no value and are not usable for training.`);
  if (isRare(evidence)) {
    parts.push(`Its rarer value is only ${fmt(round(100 * (evidence.minorityShare as number), 1))}% of the rows, so a classifier tends to predict the majority value.`);
  }
  if (evidence.leak) parts.push(`Probably not an outcome to predict: ${evidence.leak}, so it would leak into its own features.`);
  if (isDescriptor(field)) parts.push(`It says where or who a row is (${p.semantic_type}), which usually describes the row rather than an outcome.`);
  if (evidence.scarce.length) {
    parts.push(`Autotrain cannot train it as it is: ${scarceClassesText(evidence.scarce)}; remove or relabel those rows first.`);
  }
  return parts.join(' ');
}

/**
 * Label candidates from rules (autotrain.md §7.3), best first: categories of 2 to 50 values → classifier (binary or
 * multiclass), numeric columns → regressor; ids, constants, dates, free text and categories of more than 50 values
 * are left out (the reasoning of the first candidate names the latter). Outcome-like names rank higher; places and
 * genders, categories of many classes and categories named like a numeric candidate lower; with the rows, binary columns with a rare class and columns
 * computed from other columns (leaks) rank lower, and multiclass columns with a class too rare to train last.
 */
export function rankLabelCandidates(summary: SummaryShape, frame?: DataFrame): Label[] {
  const candidates: Candidate[] = [];
  const tooManyClasses: string[] = [];
  const last = Math.max(1, summary.fields.length - 1);
  const keywordOf = (column: string) => nameTokens(column).find((w) => TARGET_KEYWORDS.includes(w));
  const trainable = (f: SummaryField) => trainability(f, summary.missing_values[f.column] ?? 0, summary.rows);
  // A category named like a numeric target ("MPAA Rating" beside "IMDB Rating") is the weaker of the two.
  const numericByKeyword = new Map<string, string>();
  for (const f of summary.fields) {
    const t = trainable(f);
    const keyword = keywordOf(f.column);
    if (t.ok && t.model_type === 'regressor' && keyword && !numericByKeyword.has(keyword)) numericByKeyword.set(keyword, f.column);
  }
  summary.fields.forEach((field, index) => {
    const missing = summary.missing_values[field.column] ?? 0;
    const t = trainable(field);
    if (!t.ok) {
      if (t.tooManyClasses) tooManyClasses.push(`'${field.column}' (${field.properties.num_unique_values} classes)`);
      return;
    }
    const keyword = keywordOf(field.column);
    const numericTwin = t.model_type === 'classifier' && keyword ? numericByKeyword.get(keyword) : undefined;
    const evidence = labelEvidence(summary, frame, field);
    const score =
      t.base +
      (keyword ? KEYWORD_BONUS : 0) +
      (POSITION_BONUS * index) / last -
      (MISSING_PENALTY * missing) / Math.max(1, summary.rows) -
      (isRare(evidence) ? RARE_CLASS_PENALTY : 0) -
      (evidence.leak ? LEAK_PENALTY : 0) -
      (numericTwin ? NUMERIC_TWIN_PENALTY : 0) -
      (isDescriptor(field) ? DESCRIPTOR_PENALTY : 0) -
      (evidence.scarce.length ? UNTRAINABLE_PENALTY : 0);
    candidates.push({
      index,
      column: field.column,
      model_type: t.model_type,
      confidence: round(Math.min(0.95, Math.max(0.01, score)), 2),
      reasoning: reasoningFor(field, t, missing, summary.rows, keyword, evidence, numericTwin),
      alternatives: [],
    });
  });
  candidates.sort((a, b) => b.confidence - a.confidence || a.index - b.index);
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
