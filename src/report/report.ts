import type { ReportDocument } from './document';
import { DATA, dataSection } from './sections/data';
import { EVALUATION, evaluationSection } from './sections/evaluationCharts';
import { HEALTH, healthSection } from './sections/health';
import { IMPORTANCES, importancesSection } from './sections/importances';
import { METRICS, metricsSection } from './sections/metrics';
import { overviewSection, PREDICTS } from './sections/overview';
import { EDITS, editsSection, PARAMETERS, parametersSection } from './sections/parameters';
import { SCORING, scoringSection } from './sections/scoring';
import { STEPS, stepsSection } from './sections/steps';
import { dateText, reportView, type ModelReportInput, type ReportView } from './view';
import type { Block } from './document';

/** The sections of every report, in order: their headings and anchors. */
export const REPORT_SECTIONS = [PREDICTS, DATA, METRICS, IMPORTANCES, STEPS, EVALUATION, HEALTH, PARAMETERS, EDITS, SCORING] as const;

const BUILDERS: readonly ((view: ReportView) => Block[])[] = [
  overviewSection,
  dataSection,
  metricsSection,
  importancesSection,
  stepsSection,
  evaluationSection,
  healthSection,
  parametersSection,
  editsSection,
  scoringSection,
];

const KIND_WORDS = { binary: 'Binary classifier', regression: 'Regressor', multiclass: 'Multiclass classifier' } as const;

/** What a report of the version says, before it is written as HTML or Markdown. */
export function reportDocument(input: ModelReportInput): ReportDocument {
  const view = reportView(input);
  return {
    title: `Model report: ${view.name}`,
    subtitle: `${KIND_WORDS[view.kind]} of ${input.model.target_name} · version created ${dateText(input.version.created)} · report made ${dateText(input.generatedAt)}`,
    contents: REPORT_SECTIONS.map(({ id, text }) => ({ id, text })),
    blocks: BUILDERS.flatMap((build) => build(view)),
  };
}
