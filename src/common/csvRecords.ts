import { l10n } from '../l10n/l10n';

export interface CsvRecordOptions {
  /** One character: `,` (default), `;`, tab or `|` (see the engine's csvDialect). */
  delimiter?: string;
  /** Stop after this many records (the header counts). */
  maxRecords?: number;
}

/**
 * The records of a CSV text, every cell as written: for headers, samples and cells where no typed columns are needed
 * (typed data goes through the engine's reader). RFC 4180 quoting (a quoted field may hold the delimiter, line breaks
 * and `""`), and lenient as saved files need: a leading BOM and empty lines are skipped, rows may have any number of
 * fields, a quote inside an unquoted field and text after a closing quote are kept. An unclosed quote is an error.
 */
export function readCsvRecords(text: string, options: CsvRecordOptions = {}): string[][] {
  const delimiter = options.delimiter ?? ',';
  const maxRecords = options.maxRecords ?? Infinity;
  const records: string[][] = [];
  let fields: string[] = [];
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (records.length < maxRecords) {
    let value = '';
    if (text[pos] === '"') {
      for (let from = pos + 1; ; ) {
        const quote = text.indexOf('"', from);
        if (quote < 0) throw new Error(l10n.t('A quoted field of row {0} is never closed.', records.length + 1));
        value += text.slice(from, quote);
        if (text[quote + 1] !== '"') {
          pos = quote + 1;
          break;
        }
        value += '"';
        from = quote + 2;
      }
    }
    const end = fieldEnd(text, pos, delimiter);
    fields.push(value + text.slice(pos, end));
    pos = end;
    if (text[pos] === delimiter) {
      pos++;
      continue;
    }
    if (text[pos] === '\r') pos++;
    if (text[pos] === '\n') pos++;
    if (fields.length > 1 || fields[0] !== '') records.push(fields);
    fields = [];
    if (pos >= text.length) break;
  }
  return records;
}

function fieldEnd(text: string, from: number, delimiter: string): number {
  let end = from;
  while (end < text.length && text[end] !== delimiter && text[end] !== '\n' && text[end] !== '\r') end++;
  return end;
}
