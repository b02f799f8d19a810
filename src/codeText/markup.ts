import { escapedCharacter, UNSAFE_CHARACTER } from './unsafeCharacters';

/** The two code points XML never allows besides the controls and surrogates: an SVG image holding one does not load. */
const NOT_XML = /[\ufffe\uffff]/g;
const MARKUP = /[&<>"']/g;
const ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** ASCII punctuation Markdown gives a meaning to, but the three written as entities (a backslash before one would show). */
const MARKDOWN_PUNCTUATION = /[!"#$%'()*+,\-./:;=?@[\\\]^_`{|}~]/g;

/** Unsafe characters (line breaks, NUL, direction marks…) as the visible escapes of exported code: `\n`, `\x00`, `\u202e`. */
const visible = (text: string): string => text.replace(UNSAFE_CHARACTER, escapedCharacter).replace(NOT_XML, escapedCharacter);

/**
 * Any text (a column, category or model name) as the text or an attribute value of HTML and SVG: one line, `&`, `<`,
 * `>` and both quotes as entities, and what a reader would not see (controls, direction marks) as visible escapes. It
 * never opens an element, ends an attribute or reorders the text around it, and an SVG file that holds it is valid XML.
 */
export function markupText(text: string): string {
  return visible(text).replace(MARKUP, (c) => ENTITY[c]);
}

/** Lines of code (generated Python, say) as the text of an HTML `pre` element: each line as `markupText` writes it. */
export function markupLines(code: string): string {
  return code.split('\n').map(markupText).join('\n');
}

/**
 * Any text as one line of Markdown text, also inside a table cell or an image's description: its punctuation
 * backslash-escaped, so it makes no emphasis, link, heading, list or cell border, and `&`, `<`, `>` as entities, so
 * it opens no HTML.
 */
export function markdownText(text: string): string {
  return visible(text)
    .replace(MARKDOWN_PUNCTUATION, '\\$&')
    .replace(/[&<>]/g, (c) => ENTITY[c]);
}

/**
 * Any text as a Markdown code span, which shows it as it is: one line (controls as visible escapes), inside more
 * backticks than it holds in a row, with a space at each end that Markdown takes away, so a backtick there stays text.
 */
export function markdownCode(text: string): string {
  const shown = visible(text);
  let longest = 0;
  for (const run of shown.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${shown} ${fence}`;
}

/** Lines of code as a fenced Markdown code block: each line one line of text, the fence longer than any run of backticks in it. */
export function markdownCodeBlock(code: string, language: string): string {
  const lines = code.split('\n').map(visible);
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${visible(language).replace(/[`\s]/g, '')}`, ...lines, fence].join('\n');
}
