import type { Chart } from './charts/svg';

/**
 * What a report says, before it is written as HTML or Markdown: the sections build these blocks once, and each
 * renderer escapes every text of them as its format needs. No block holds markup, so no name can become any.
 */

/** A run of text: plain, code (a name, a value) or strong. */
export type Span = string | { code: string } | { strong: string };

/** A table cell: text, or a number shown as `text` whose exact value the HTML keeps beside it (`data-value`). */
export type Cell = string | { text: string; value: number | null };

export type Block =
  | { kind: 'heading'; level: 2 | 3 | 4; text: string; id: string }
  | { kind: 'paragraph'; spans: Span[] }
  | { kind: 'list'; items: Span[][] }
  | { kind: 'table'; head: string[]; rows: Cell[][] }
  /** Labelled values, one a line. */
  | { kind: 'facts'; rows: [string, string][] }
  | { kind: 'figure'; chart: Chart; caption: string }
  | { kind: 'code'; language: string; code: string };

export interface ReportDocument {
  title: string;
  /** The line under the title. */
  subtitle: string;
  /** The sections' headings, for the table of contents. */
  contents: { id: string; text: string }[];
  blocks: Block[];
}

export const paragraph = (...spans: Span[]): Block => ({ kind: 'paragraph', spans });
export const code = (text: string): Span => ({ code: text });
export const strong = (text: string): Span => ({ strong: text });

/** A number cell: its text as shown, its value kept exactly. */
export const numberCell = (text: string, value: number | null): Cell => ({ text, value });
