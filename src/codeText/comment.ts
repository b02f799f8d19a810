import { escapedCharacter, UNSAFE_CHARACTER } from './unsafeCharacters';

/** A repeated quote or dash (`"""`, `'''`, `--`) and the ends of a block comment (`/*`, `*\/`): each gets a space. */
const DELIMITER = /(["'-])(?=\1)|\*(?=\/)|\/(?=\*)/g;

/**
 * Any text (a model title, a column name) as the text of a one-line comment in generated code: a Python comment or
 * raw docstring, an SQL `--` or block comment. Unsafe characters are written as escapes (`\n`, `\x00`, `\u202e`), and
 * what could end the comment or docstring, or open another, is broken up by a space: `" " "`, `- -`, `* /`. It is for
 * a reader only; code that needs the exact text writes it as a literal.
 */
export function commentText(text: string): string {
  return text.replace(UNSAFE_CHARACTER, escapedCharacter).replace(DELIMITER, '$& ');
}
