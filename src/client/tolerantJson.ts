import { parseJsonWithNonFinite } from '../engine/model/json';

/**
 * Parses JSON that may hold the bare tokens `NaN`, `Infinity` and `-Infinity` (Python's json writes them). Each token
 * outside a string becomes `null`, the contract's spelling of a missing or open-ended number; strings are unchanged.
 */
export function parseTolerantJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // JSON.stringify writes every non-finite number as null.
    return JSON.parse(JSON.stringify(parseJsonWithNonFinite(text)));
  }
}
