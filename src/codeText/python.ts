import { escapedCharacter, UNSAFE_CHARACTER } from './unsafeCharacters';

const QUOTE_OR_BACKSLASH = /["\\]/g;

/**
 * Any text as a Python string literal that reads back as the same text, on one line and with nothing an editor would
 * hide or reorder: `"` and `\` are escaped, unsafe characters written as `\n`, `\x00`, `\u202e` (as repr writes them).
 */
export function pyString(text: string): string {
  return `"${text.replace(QUOTE_OR_BACKSLASH, '\\$&').replace(UNSAFE_CHARACTER, escapedCharacter)}"`;
}

/** A regular expression's source that matches one Python string literal on one line: in double quotes as `pyString` writes it, or in single quotes. */
export const PY_STRING_PATTERN = String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`;
