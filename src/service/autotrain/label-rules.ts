import type { DatasetSummary, Label, SummaryField } from '../../contract/autotrain';
import type { RequestModelType } from '../../contract/common';
import type { DataFrame } from '../../engine';
import { labelEvidence, RARE_CLASS_SHARE, type LabelEvidence } from './label-evidence';
import { nameTokens } from './semantic';
import { fmt, round } from './stats';

type SummaryShape = Pick<DatasetSummary, 'rows' | 'columns' | 'missing_values' | 'fields'>;

/** Name words of outcomes: what is predicted (statuses, results, severities) and what is counted or paid. */
const TARGET_KEYWORDS = [
  'churn', 'target', 'label', 'outcome', 'class', 'default', 'fraud', 'survived', 'status', 'converted', 'price', 'sales',
  'result', 'response', 'diagnosis', 'damage', 'severity', 'visits', 'admissions', 'claims', 'charges', 'cost', 'amount',
  'revenue', 'count', 'rating', 'quality', 'grade', 'risk', 'disease', 'readmitted', 'attrition', 'approved', 'success', 'y',
];
const NOT_TARGET_SEMANTICS = new Set(['id', 'email', 'url', 'ip address', 'zip code', 'year', 'latitude', 'longitude']);
const BINARY_SCORE = 0.55;
const CONTINUOUS_SCORE = 0.4;
const ORDINAL_SCORE = 0.25;
const KEYWORD_BONUS = 0.3;
const POSITION_BONUS = 0.05;
const MISSING_PENALTY = 0.3;
const RARE_CLASS_PENALTY = 0.35;
const LEAK_PENALTY = 0.45;
/** Numbers with more distinct values than this are continuous; fewer are ordinal levels. */
const CONTINUOUS_LEVELS = 10;

/** Why a column can or cannot be a label for the binary classifier / regressor engine. */
export type Trainability =
  | { ok: true; model_type: Label['model_type']; base: number; kind: string }
  | { ok: false; reason: string; multiclass: boolean };

/**
 * Whether the engine trains a model of this type on a target with this many distinct values; the one place to widen
 * when multiclass classification lands.
 */
export function canTrainTarget(modelType: RequestModelType, distinctValues: number): { ok: true } | { ok: false; reason: string } {
  if (modelType === 'classifier' && distinctValues > 2) {
    return { ok: false, reason: `it has ${distinctValues} classes and the engine trains binary classifiers only` };
  }
  return { ok: true };
}

/** The model type a target column calls for: regression on a number with more than two values, else classification. */
export function targetModelType(field: SummaryField | undefined): RequestModelType {
  return field && field.properties.dtype === 'number' && field.properties.num_unique_values > 2 ? 'regressor' : 'classifier';
}

export function trainability(field: SummaryField, missing: number, rows: number): Trainability {
  const p = field.properties;
  if (p.num_unique_values <= 1) return { ok: false, reason: 'it is constant', multiclass: false };
  if (p.dtype === 'date') return { ok: false, reason: 'it is a date', multiclass: false };
  if (p.dtype === 'string') return { ok: false, reason: 'it is free text', multiclass: false };
  if (NOT_TARGET_SEMANTICS.has(p.semantic_type)) return { ok: false, reason: `it is an identifier-like ${p.semantic_type}`, multiclass: false };
  if (rows > 0 && missing / rows > 0.5) return { ok: false, reason: 'more than half of its values are missing', multiclass: false };
  if (p.num_unique_values === 2 || p.dtype === 'boolean') {
    return { ok: true, model_type: 'classifier', base: BINARY_SCORE, kind: 'binary classification' };
  }
  if (p.dtype === 'number') {
    return p.num_unique_values > CONTINUOUS_LEVELS
      ? { ok: true, model_type: 'regressor', base: CONTINUOUS_SCORE, kind: 'regression on a continuous value' }
      : { ok: true, model_type: 'regressor', base: ORDINAL_SCORE, kind: `regression on ${p.num_unique_values} ordered levels` };
  }
  const classes = canTrainTarget('classifier', p.num_unique_values);
  return classes.ok
    ? { ok: true, model_type: 'classifier', base: BINARY_SCORE, kind: `classification into ${p.num_unique_values} classes` }
    : { ok: false, reason: classes.reason, multiclass: true };
}

interface Candidate extends Label {
  index: number;
}

function isRare(evidence: LabelEvidence): boolean {
  return evidence.minorityShare !== null && evidence.minorityShare < RARE_CLASS_SHARE;
}

function reasoningFor(
  field: SummaryField,
  t: Extract<Trainability, { ok: true }>,
  missing: number,
  rows: number,
  keyword: string | undefined,
  evidence: LabelEvidence,
): string {
  const p = field.properties;
  const values = t.model_type === 'classifier'
    ? `has ${p.num_unique_values} values (${p.samples.map(String).join(', ')})`
    : `is numeric from ${fmt(p.min as number)} to ${fmt(p.max as number)} with ${p.num_unique_values} distinct values`;
  const parts = [`'${field.column}' ${values}, so it suits ${t.kind} (${t.model_type}).`];
  if (keyword) parts.push(`Its name contains the target keyword '${keyword}'.`);
  if (missing > 0) parts.push(`${missing} of ${rows} rows (${fmt(round((100 * missing) / rows, 1))}%) have no value and are not usable for training.`);
  if (isRare(evidence)) {
    parts.push(`Its rarer value is only ${fmt(round(100 * (evidence.minorityShare as number), 1))}% of the rows, so a classifier tends to predict the majority value.`);
  }
  if (evidence.leak) parts.push(`Probably not an outcome to predict: ${evidence.leak}, so it would leak into its own features.`);
  return parts.join(' ');
}

/**
 * Label candidates from rules (autotrain.md §7.3), best first: binary columns → classifier, numeric columns →
 * regressor; ids, constants, dates, free text and multiclass columns are left out (the reasoning of the first
 * candidate names the multiclass ones). Outcome-like names rank higher; with the rows, binary columns with a rare
 * class and columns computed from other columns (leaks) rank lower.
 */
export function rankLabelCandidates(summary: SummaryShape, frame?: DataFrame): Label[] {
  const candidates: Candidate[] = [];
  const multiclass: string[] = [];
  const last = Math.max(1, summary.fields.length - 1);
  summary.fields.forEach((field, index) => {
    const missing = summary.missing_values[field.column] ?? 0;
    const t = trainability(field, missing, summary.rows);
    if (!t.ok) {
      if (t.multiclass) multiclass.push(`'${field.column}' (${field.properties.num_unique_values} classes)`);
      return;
    }
    const keyword = nameTokens(field.column).find((w) => TARGET_KEYWORDS.includes(w));
    const evidence = labelEvidence(summary, frame, field.column);
    const score =
      t.base +
      (keyword ? KEYWORD_BONUS : 0) +
      (POSITION_BONUS * index) / last -
      (MISSING_PENALTY * missing) / Math.max(1, summary.rows) -
      (isRare(evidence) ? RARE_CLASS_PENALTY : 0) -
      (evidence.leak ? LEAK_PENALTY : 0);
    candidates.push({
      index,
      column: field.column,
      model_type: t.model_type,
      confidence: round(Math.min(0.95, Math.max(0.01, score)), 2),
      reasoning: reasoningFor(field, t, missing, summary.rows, keyword, evidence),
      alternatives: [],
    });
  });
  candidates.sort((a, b) => b.confidence - a.confidence || a.index - b.index);
  return candidates.map(({ index: _index, ...label }, i) => ({
    ...label,
    reasoning:
      i === 0 && multiclass.length
        ? `${label.reasoning} Not offered: ${multiclass.join(', ')}, because the engine trains binary classifiers only.`
        : label.reasoning,
    alternatives: candidates.filter((c) => c.column !== label.column).slice(0, 3).map((c) => c.column),
  }));
}
