import type { ExportTables } from './scoringTables';

/** PostgreSQL's longest identifier, in bytes: it cuts longer ones, so two names sharing these bytes would collide. */
const MAX_NAME_BYTES = 63;
/** `_` and 8 hex digits that end a name too long for MAX_NAME_BYTES. */
const HASH_BYTES = 9;

/** FNV-1a over the name's UTF-8 bytes, as 8 hex digits. */
function nameHash(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A column the scoring query adds, named `xm_<part>_<part>…` so that it does not clash with the input's columns. A
 * name longer than MAX_NAME_BYTES keeps its first bytes (whole characters) and ends with a hash of the whole name, so
 * that every dialect names it alike and two long names that share a prefix stay apart where PostgreSQL cuts them.
 */
export function scoredColumn(...parts: string[]): string {
  const name = ['xm', ...parts].join('_');
  const bytes = new TextEncoder().encode(name);
  if (bytes.length <= MAX_NAME_BYTES) return name;
  let cut = MAX_NAME_BYTES - HASH_BYTES;
  // Not inside a character: a UTF-8 continuation byte is 10xxxxxx.
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return `${new TextDecoder().decode(bytes.subarray(0, cut))}_${nameHash(bytes)}`;
}

/**
 * The columns the scoring query adds that a prediction keeps: the prediction and its probabilities, and with
 * `explain` what sums to the score (base values, the features' contributions and the pair terms', and a binary
 * model's score).
 */
export function scoredColumns(tables: ExportTables, explain: boolean): string[] {
  if (tables.modelType === 'multiclass') {
    const perClass = (what: string) => tables.classes.map((c) => scoredColumn(what, c));
    const terms = (c: string, k: number) => [
      ...tables.features.map((f) => scoredColumn('contribution', c, f)),
      ...tables.classTables[k].pairs.map((p) => scoredColumn('interaction', c, p)),
    ];
    const explained = explain ? [...perClass('base_value'), ...tables.classes.flatMap(terms)] : [];
    return [scoredColumn('prediction'), ...perClass('probability'), ...explained];
  }
  const terms = [...tables.features.map((f) => scoredColumn('contribution', f)), ...tables.pairs.map((p) => scoredColumn('interaction', p))];
  const explained = explain ? [scoredColumn('base_value'), ...terms, scoredColumn('score')] : [];
  return [scoredColumn('prediction'), ...(tables.modelType === 'classifier' ? [scoredColumn('probability')] : []), ...explained];
}
