import type { Column } from './frame';

/** A text column with at least this share of distinct values among its present rows holds nearly one per row. */
export const IDENTIFIER_SHARE = 0.9;
/** Free text: at least this share of distinct values, most of them of several words. */
const FREE_TEXT_SHARE = 0.5;

/**
 * Why a column looks like an identifier rather than a feature (null when it does not): nearly every row holds its
 * own value, or it holds free text (many distinct values of several words). Such a column lets a model learn the
 * training rows by name. Numbers are never taken for identifiers: a measured quantity can be distinct on every row.
 */
export function identifierReason(col: Column): string | null {
  if (col.storage !== 'category' || col.type === 'boolean') return null;
  const seen = new Uint8Array(col.levels.length);
  let present = 0;
  let distinct = 0;
  for (const c of col.codes) {
    if (c < 0) continue;
    present++;
    if (!seen[c]) distinct++;
    seen[c] = 1;
  }
  if (present < 2) return null;
  const share = distinct / present;
  const percent = `${Math.round(share * 100)}%`;
  if (col.type === 'id' || share >= IDENTIFIER_SHARE) return `nearly every row has its own value (${distinct.toLocaleString('en-US')} distinct in ${present.toLocaleString('en-US')} rows)`;
  if (share < FREE_TEXT_SHARE) return null;
  let words = 0;
  col.levels.forEach((level, c) => {
    if (seen[c] && /\S\s+\S/.test(level)) words++;
  });
  return words * 2 > distinct ? `it holds free text (${percent} of its rows have their own value, mostly of several words)` : null;
}
