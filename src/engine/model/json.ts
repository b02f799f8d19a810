const TOKENS: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
const SENTINEL = '\u0000nonfinite:';

/**
 * JSON.parse that also accepts the bare tokens `NaN`, `Infinity` and `-Infinity` (as Python's json writes them)
 * outside strings: as the matching numbers, or with `nonFinite: 'null'` as null, the contract's spelling of a missing
 * or open-ended number. Strings are left unchanged.
 */
export function parseJsonWithNonFinite(text: string, nonFinite: 'number' | 'null' = 'number'): unknown {
  let out = '';
  let start = 0;
  let inString = false;
  let found = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    const token = c === 'N' ? 'NaN' : c === 'I' ? 'Infinity' : c === '-' && text[i + 1] === 'I' ? '-Infinity' : null;
    if (token && text.startsWith(token, i)) {
      out += text.slice(start, i) + (nonFinite === 'null' ? 'null' : JSON.stringify(SENTINEL + token));
      i += token.length - 1;
      start = i + 1;
      found = true;
    }
  }
  if (!found) return JSON.parse(text);
  out += text.slice(start);
  if (nonFinite === 'null') return JSON.parse(out);
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(SENTINEL) ? TOKENS[value.slice(SENTINEL.length)] : value,
  );
}
