/** How deep arrays and objects may nest in a request's JSON (a model payload nests about ten levels). */
export const MAX_JSON_DEPTH = 64;

/** How many items one array, or fields one object, of a request's JSON may hold. */
export const MAX_JSON_ITEMS = 100_000;

/**
 * The most a JSON body may weigh: the upload limit, and never more than this, as a body is held in memory as text
 * and again as its value (and JavaScript's longest string is about 512 MB).
 */
export const MAX_JSON_BODY_BYTES = 256 * 1024 * 1024;

export interface JsonLimitProblem {
  limit: 'depth' | 'items';
  /** What the text does, as the rest of a sentence whose subject names it. */
  detail: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** The index of the quote that closes the string opened at `start`, or the text's length when none does. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * Whether JSON text nests deeper than MAX_JSON_DEPTH or has a container of more than MAX_JSON_ITEMS items, found in
 * one pass over the text before it is parsed, so that nothing recursive (validation, error messages, storage) ever
 * meets such a value. Malformed text is left for the parser to report.
 */
export function jsonLimitProblem(text: string): JsonLimitProblem | undefined {
  const commas = new Uint32Array(MAX_JSON_DEPTH + 1);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === MAX_JSON_DEPTH) return { limit: 'depth', detail: `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, the limit` };
      commas[++depth] = 0;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth > 0) depth--;
    } else if (c === COMMA && depth > 0 && ++commas[depth] >= MAX_JSON_ITEMS) {
      return { limit: 'items', detail: `has an array or object of more than ${MAX_JSON_ITEMS.toLocaleString('en-US')} items, the limit` };
    }
  }
  return undefined;
}
