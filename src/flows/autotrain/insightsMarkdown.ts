import type { Evidence, Insights } from '../../contract/autotrain';

function escapeCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Numbers keep up to 4 decimals without trailing zeros; null reads as a dash. */
export function formatEvidenceValue(value: Evidence[string]): string {
  if (value === null) return '—';
  if (typeof value === 'string') return value;
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(4)));
}

function evidenceTable(evidence: Evidence): string[] {
  const entries = Object.entries(evidence);
  if (entries.length === 0) return [];
  return [
    '| Evidence | Value |',
    '| --- | --- |',
    ...entries.map(([name, value]) => `| ${escapeCell(name)} | ${escapeCell(formatEvidenceValue(value))} |`),
    '',
  ];
}

/** A Markdown report of the insights: one section per insight with its text, columns and evidence numbers. */
export function renderInsightsMarkdown(result: Insights, fileName: string): string {
  const lines = [
    `# Insights: ${result.goal.question}`,
    '',
    `Dataset \`${fileName}\` · chart: ${result.goal.visualization} · answered by ${result.source === 'llm' ? 'the language model' : 'rules'}`,
    '',
  ];
  for (const warning of result.warnings) lines.push(`> Warning: ${warning}`, '');
  if (result.insights.length === 0) lines.push('No insight could be computed for this question.', '');
  for (const insight of result.insights) {
    lines.push(`## ${insight.title}`, '', insight.detail, '');
    if (insight.columns.length) lines.push(`Columns: ${insight.columns.map((c) => `\`${c}\``).join(', ')}`, '');
    lines.push(...evidenceTable(insight.evidence));
  }
  return lines.join('\n');
}
