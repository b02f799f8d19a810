import { markupLines, markupText } from '../codeText/markup';
import { svgMarkup } from './charts/svg';
import type { Block, Cell, ReportDocument, Span } from './document';

/**
 * What the page may load: nothing but its own styles and inline images. It runs no script and fetches nothing, so it
 * opens offline and, were a name ever to slip through as markup, could still not act. The service sends it as a header.
 */
export const REPORT_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE = `
:root { color-scheme: light; }
body { margin: 0; background: #ffffff; color: #222222; font: 14px/1.5 Helvetica, Arial, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 64px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 36px 0 8px; padding-top: 8px; border-top: 2px solid #222222; }
h3 { font-size: 16px; margin: 24px 0 6px; }
h4 { font-size: 14px; margin: 18px 0 6px; color: #444444; }
.subtitle { color: #555555; margin: 0 0 16px; }
nav ol { columns: 2; margin: 8px 0 0; padding-left: 20px; }
a { color: #0b5cad; }
code { font-family: Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; background: #f3f3f3; padding: 0 3px; border-radius: 3px; overflow-wrap: anywhere; }
pre { background: #f6f6f6; border: 1px solid #dddddd; padding: 12px; overflow-x: auto; font-size: 12px; line-height: 1.4; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: 8px 0 12px; }
th, td { border-bottom: 1px solid #dddddd; padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; font-weight: 600; }
td[data-value] { text-align: right; font-variant-numeric: tabular-nums; }
table.facts th { background: none; width: 12em; }
figure { display: inline-block; vertical-align: top; margin: 8px 16px 12px 0; max-width: 100%; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 12px; color: #555555; max-width: 560px; }
@media print {
  @page { margin: 16mm; }
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  nav { display: none; }
  h2 { break-before: auto; break-after: avoid; }
  h3, h4 { break-after: avoid; }
  figure, table, pre { break-inside: avoid; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; }
  a { color: inherit; text-decoration: none; }
}
`;

function spans(content: readonly Span[]): string {
  return content
    .map((s) => (typeof s === 'string' ? markupText(s) : 'code' in s ? `<code>${markupText(s.code)}</code>` : `<strong>${markupText(s.strong)}</strong>`))
    .join('');
}

function cell(c: Cell): string {
  if (typeof c === 'string') return `<td>${markupText(c)}</td>`;
  return c.value === null ? `<td data-value="">${markupText(c.text)}</td>` : `<td data-value="${String(c.value)}">${markupText(c.text)}</td>`;
}

function block(b: Block): string {
  switch (b.kind) {
    case 'heading':
      return `<h${b.level} id="${markupText(b.id)}">${markupText(b.text)}</h${b.level}>`;
    case 'paragraph':
      return `<p>${spans(b.spans)}</p>`;
    case 'list':
      return `<ul>${b.items.map((item) => `<li>${spans(item)}</li>`).join('')}</ul>`;
    case 'table': {
      const head = `<thead><tr>${b.head.map((h) => `<th>${markupText(h)}</th>`).join('')}</tr></thead>`;
      const rows = b.rows.map((row) => `<tr>${row.map(cell).join('')}</tr>`).join('');
      return `<table>${head}<tbody>${rows}</tbody></table>`;
    }
    case 'facts':
      return `<table class="facts"><tbody>${b.rows.map(([label, value]) => `<tr><th>${markupText(label)}</th><td>${markupText(value)}</td></tr>`).join('')}</tbody></table>`;
    case 'figure':
      return `<figure>${svgMarkup(b.chart, false)}<figcaption>${markupText(b.caption)}</figcaption></figure>`;
    case 'code':
      return `<pre><code class="language-${markupText(b.language)}">${markupLines(b.code)}</code></pre>`;
  }
}

/** The report as one HTML page that needs nothing else: its styles inline (light, and a print stylesheet), its charts inline SVG. */
export function renderHtml(doc: ReportDocument, generator: string): string {
  const contents = doc.contents.map((c) => `<li><a href="#${markupText(c.id)}">${markupText(c.text)}</a></li>`).join('');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${REPORT_CONTENT_SECURITY_POLICY}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="${markupText(generator)}">`,
    `<title>${markupText(doc.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${markupText(doc.title)}</h1>`,
    `<p class="subtitle">${markupText(doc.subtitle)}</p>`,
    `<nav><strong>Contents</strong><ol>${contents}</ol></nav>`,
    ...doc.blocks.map(block),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
