/**
 * Reads panel arguments from command arguments (tree nodes or plain objects) and from restored webview state.
 * Pure apart from the contract schemas, so it is unit-tested without VS Code.
 */
import { DatasetSummarySchema, GoalSchema, LabelSchema, RecommendationSchema, VisualizationLibrarySchema } from '../contract/autotrain';
import type { CompareArgs, DatasetSummaryArgs, EvaluationArgs, FeatureInfoArgs, PanelSubject, ProfileArgs, VisualizationArgs } from '../views/protocol';

function field(raw: unknown, name: string): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = (raw as Record<string, unknown>)[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function positiveInteger(raw: unknown, name: string): number | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = (raw as Record<string, unknown>)[name];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The model name and version number: plain `modelName`/`versionNumber`, else those of a tree node (a version
 * node's `model` and `version`, a partition node's `model` and `versionNumber`).
 */
export function panelSubject(raw: unknown): PanelSubject {
  if (typeof raw !== 'object' || raw === null) return {};
  const { model, version } = raw as Record<string, unknown>;
  const modelName = field(raw, 'modelName') ?? field(model, 'model_name');
  const versionNumber = positiveInteger(raw, 'versionNumber') ?? positiveInteger(version, 'version_number');
  return { ...(modelName ? { modelName } : {}), ...(versionNumber ? { versionNumber } : {}) };
}

/** "breast_cancer v2 · Profile"; the parts alone when neither the model nor the version is known. */
export function subjectTitle(subject: PanelSubject, ...parts: string[]): string {
  const version = subject.versionNumber ? `v${subject.versionNumber}` : undefined;
  const name = [subject.modelName, version].filter((part) => part).join(' ');
  return [name, ...parts].filter((part) => part).join(' \u00b7 ');
}

/** Whether a title can name the model or the version. */
export const hasSubject = (subject: PanelSubject): boolean => Boolean(subject.modelName || subject.versionNumber);

/** From a version or partition node, or `{versionId, modelId?, partitionId?, modelName?, versionNumber?}`. */
export function profileArgs(raw: unknown): ProfileArgs | undefined {
  const versionId = field(raw, 'versionId');
  if (!versionId) return undefined;
  const modelId = field(raw, 'modelId');
  const partitionId = field(raw, 'partitionId');
  return { versionId, ...(modelId ? { modelId } : {}), ...(partitionId ? { partitionId } : {}), ...panelSubject(raw) };
}

/** From a partition node or `{partitionId, csvPath?, modelName?, versionNumber?}`. */
export function evaluationArgs(raw: unknown): EvaluationArgs | undefined {
  const partitionId = field(raw, 'partitionId');
  const csvPath = field(raw, 'csvPath');
  return partitionId ? { partitionId, ...(csvPath ? { csvPath } : {}), ...panelSubject(raw) } : undefined;
}

/** From a version (or partition) node or `{versionId, modelName?, versionNumber?}`. */
export function featureInfoArgs(raw: unknown): FeatureInfoArgs | undefined {
  const versionId = field(raw, 'versionId');
  return versionId ? { versionId, ...panelSubject(raw) } : undefined;
}

/** `{summary, goals?, labels?, recommendations?, dataPath?}`, each checked against the contract. */
export function datasetSummaryArgs(raw: unknown): DatasetSummaryArgs | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const parsed = DatasetSummarySchema.safeParse((raw as Record<string, unknown>).summary);
  if (!parsed.success) return undefined;
  const list = <T>(value: unknown, parse: (item: unknown) => { success: boolean; data?: T }): T[] | undefined =>
    Array.isArray(value) ? value.map(parse).flatMap((r) => (r.success && r.data !== undefined ? [r.data] : [])) : undefined;
  const { goals, labels, recommendations } = raw as Record<string, unknown>;
  const dataPath = field(raw, 'dataPath');
  const result: DatasetSummaryArgs = { summary: parsed.data, ...(dataPath ? { dataPath } : {}) };
  const parsedGoals = list(goals, (g) => GoalSchema.safeParse(g));
  const parsedLabels = list(labels, (l) => LabelSchema.safeParse(l));
  const parsedRecommendations = list(recommendations, (r) => RecommendationSchema.safeParse(r));
  if (parsedGoals) result.goals = parsedGoals;
  if (parsedLabels) result.labels = parsedLabels;
  if (parsedRecommendations) result.recommendations = parsedRecommendations;
  return result;
}

/** `{summary, goal, library?, dataPath?}`, checked against the contract. */
export function visualizationArgs(raw: unknown): VisualizationArgs | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const record = raw as Record<string, unknown>;
  const summary = DatasetSummarySchema.safeParse(record.summary);
  const goal = GoalSchema.safeParse(record.goal);
  if (!summary.success || !goal.success) return undefined;
  const library = VisualizationLibrarySchema.safeParse(record.library);
  const dataPath = field(raw, 'dataPath');
  return { summary: summary.data, goal: goal.data, ...(library.success ? { library: library.data } : {}), ...(dataPath ? { dataPath } : {}) };
}

/** What identifies a dataset summary's object across panels. */
export function datasetKey(args: { summary: { dataset_id: string | null; name: string } }): string {
  return args.summary.dataset_id ?? `name:${args.summary.name}`;
}

/** `{modelId, versionId, otherVersionId, modelName?}`: two different versions of one model. */
export function compareArgs(raw: unknown): CompareArgs | undefined {
  const modelId = field(raw, 'modelId');
  const versionId = field(raw, 'versionId');
  const otherVersionId = field(raw, 'otherVersionId');
  if (!modelId || !versionId || !otherVersionId || versionId === otherVersionId) return undefined;
  const modelName = field(raw, 'modelName');
  return { modelId, versionId, otherVersionId, ...(modelName ? { modelName } : {}) };
}
