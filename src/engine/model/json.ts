const TOKENS: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
const SENTINEL = '\u0000nonfinite:';

/**
 * JSON.parse that also accepts the bare tokens `NaN`, `Infinity` and `-Infinity` (as Python's json writes them)
 * outside strings, returning the matching numbers.
 */
export function parseJsonWithNonFinite(text: string): unknown {
  let out = '';
  let start = 0;
  let inString = false;
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
      out += text.slice(start, i) + JSON.stringify(SENTINEL + token);
      i += token.length - 1;
      start = i + 1;
    }
  }
  out += text.slice(start);
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(SENTINEL) ? TOKENS[value.slice(SENTINEL.length)] : value,
  );
}
