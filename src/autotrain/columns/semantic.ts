import type { AutotrainDtype } from '../../contract/autotrain';

/** What the semantic-type rules look at for one column. */
export interface SemanticInput {
  name: string;
  dtype: AutotrainDtype;
  /** Distinct non-null trimmed values; a number column's may be its first few only (see summary.ts numericFacts). */
  distinct: readonly string[];
  /** How many distinct values there are. */
  distinctCount: number;
  nonNull: number;
  min?: number;
  max?: number;
  integer: boolean;
}

/** Lower-case words of a column name: "Miles_per_Gallon" → miles, per, gallon; "customerID" → customer, id. */
export function nameTokens(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9%]+/)
    .filter(Boolean);
}

const EMAIL_RE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const URL_RE = /^https?:\/\/\S+$/i;
const IPV4_RE = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const GENDER_VALUES = new Set(['male', 'female', 'm', 'f', 'man', 'woman', 'other', 'non-binary']);

const NAME_TYPES: [string, readonly string[]][] = [
  ['zip code', ['zip', 'zipcode', 'postcode', 'postal']],
  ['country', ['country', 'nation']],
  ['city', ['city', 'town']],
  ['location', ['location', 'region', 'state', 'island', 'origin', 'destination']],
  ['price', ['price', 'cost', 'gross', 'revenue', 'sales', 'budget', 'income', 'salary', 'amount', 'fee', 'charges']],
  ['percentage', ['percent', 'percentage', 'pct', '%']],
  ['count', ['count', 'votes', 'qty', 'quantity', 'num', 'number']],
];

function all(values: readonly string[], re: RegExp): boolean {
  return values.length > 0 && values.every((v) => re.test(v));
}

function inRange(input: SemanticInput, lo: number, hi: number): boolean {
  return input.dtype === 'number' && input.min !== undefined && input.max !== undefined && input.min >= lo && input.max <= hi;
}

/** True when the column looks like a row identifier: an id-like name or code-like text, almost every value distinct. */
function looksLikeId(input: SemanticInput): boolean {
  if (input.nonNull === 0) return false;
  const ratio = input.distinctCount / input.nonNull;
  const tokens = nameTokens(input.name);
  const idName = tokens.includes('id') || tokens.includes('uuid') || tokens.includes('key') || /id$/i.test(input.name);
  if (idName && ratio >= 0.95) return true;
  return input.dtype === 'string' && ratio === 1 && input.distinct.every((v) => !/\s/.test(v)) && !input.distinct.every((v) => /^[A-Za-z]+$/.test(v));
}

/** One-word-ish semantic type from the column name and its values (autotrain.md §7.1). */
export function semanticType(input: SemanticInput): string {
  const tokens = nameTokens(input.name);
  const has = (words: readonly string[]): boolean => tokens.some((t) => words.includes(t));
  if (input.dtype === 'date') return 'date';
  if (all(input.distinct, EMAIL_RE)) return 'email';
  if (all(input.distinct, URL_RE)) return 'url';
  if (all(input.distinct, IPV4_RE)) return 'ip address';
  if (looksLikeId(input)) return 'id';
  if (has(['lat', 'latitude']) && inRange(input, -90, 90)) return 'latitude';
  if (has(['lon', 'lng', 'long', 'longitude']) && inRange(input, -180, 180)) return 'longitude';
  if (has(['year', 'yr']) && input.integer && inRange(input, 1800, 2100)) return 'year';
  if (has(['sex', 'gender']) || (input.distinct.length > 0 && input.distinct.every((v) => GENDER_VALUES.has(v.toLowerCase())))) {
    return 'gender';
  }
  if (input.dtype === 'boolean') return 'flag';
  for (const [type, words] of NAME_TYPES) {
    if (!has(words)) continue;
    if (type === 'count' && !(input.dtype === 'number' && input.integer && (input.min ?? 0) >= 0)) continue;
    if ((type === 'price' || type === 'percentage') && input.dtype !== 'number') continue;
    return type;
  }
  if (input.dtype === 'number') return 'number';
  if (input.dtype === 'category') return 'category';
  return 'text';
}
