/**
 * Characters that never reach generated code as they are: control characters (line breaks, NUL, C1 codes), invisible
 * format characters (zero-width marks, the byte order mark, tag characters) among them the bidirectional marks,
 * embeddings, overrides and isolates that make an editor show code in another order than it runs, the Unicode line
 * and paragraph separators, and lone UTF-16 surrogates.
 */
export const UNSAFE_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (code: number, digits: number): string => code.toString(16).padStart(digits, '0');

/** How Python's repr writes a character it will not show: `\n`, `\x00`, `\u202e` or `\U000e0041`. */
export function escapedCharacter(character: string): string {
  const named = NAMED[character];
  if (named) return named;
  const code = character.codePointAt(0) as number;
  if (code < 0x100) return `\\x${hex(code, 2)}`;
  return code < 0x10000 ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
}
