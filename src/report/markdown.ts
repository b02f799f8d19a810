import { markdownCode, markdownCodeBlock, markdownText } from '../codeText/markup';
import { svgMarkup } from './charts/svg';
import type { Block, Cell, ReportDocument, Span } from './document';

/** A chart as a Markdown image: an SVG file inside a base64 `data:` URI, so the Markdown stays one file. */
export const SVG_DATA_URI_PREFIX = 'data:image/svg+xml;base64,';

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function spans(content: readonly Span[]): string {
  return content.map((s) => (typeof s === 'string' ? markdownText(s) : 'code' in s ? markdownCode(s.code) : `**${markdownText(s.strong)}**`)).join('');
}

const cellText = (c: Cell): string => markdownText(typeof c === 'string' ? c : c.text);

function block(b: Block): string {
  switch (b.kind) {
    case 'heading':
      return `${'#'.repeat(b.level)} ${markdownText(b.text)}`;
    case 'paragraph':
      return spans(b.spans);
    case 'list':
      return b.items.map((item) => `- ${spans(item)}`).join('\n');
    case 'table': {
      const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
      return [row(b.head.map(markdownText)), row(b.head.map(() => '---')), ...b.rows.map((r) => row(r.map(cellText)))].join('\n');
    }
    case 'facts':
      return b.rows.map(([label, value]) => `- **${markdownText(label)}:** ${markdownText(value)}`).join('\n');
    case 'figure':
      return `![${markdownText(b.chart.title)}](${SVG_DATA_URI_PREFIX}${base64(svgMarkup(b.chart, true))})\n\n*${markdownText(b.caption)}*`;
    case 'code':
      return markdownCodeBlock(b.code, b.language);
  }
}

/** The report as Markdown: the same blocks, each chart an SVG image inside a `data:` URI (see `splitImages` to write them as files). */
export function renderMarkdown(doc: ReportDocument): string {
  return [`# ${markdownText(doc.title)}`, markdownText(doc.subtitle), ...doc.blocks.map(block), ''].join('\n\n');
}
