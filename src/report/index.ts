import { renderHtml } from './html';
import { renderMarkdown } from './markdown';
import { reportDocument } from './report';
import type { ModelReportInput } from './view';

export { REPORT_CONTENT_SECURITY_POLICY } from './html';
export { REPORT_SECTIONS } from './report';
export { splitImages, type ImageFile } from './markdownImages';
export { reportFileName, type ReportFormat } from './fileName';
export type { ModelReportInput } from './view';

/** A model version's report as one HTML page that opens offline in any browser: no script, no request, charts inline. */
export const modelReportHtml = (input: ModelReportInput): string => renderHtml(reportDocument(input), input.generator);

/** The same report as Markdown, its charts SVG images inside `data:` URIs. */
export const modelReportMarkdown = (input: ModelReportInput): string => renderMarkdown(reportDocument(input));
