import type { AutotrainApi, StartAutotrainParams } from '../../client';
import type { DatasetSummary, Goal, Label, Recommendation } from '../../contract/autotrain';
import type { AutotrainData } from './autotrainWizard';

/** The `textgen_config` sent with each call (`XModelsServices.textGenConfig()`). */
export type TextGenRequest = StartAutotrainParams['textgen_config'];

type SuggestionApi = Pick<AutotrainApi, 'generateGoals' | 'generateLabels' | 'generateFeatureEngineering'>;

/** Where the service's warnings (e.g. an LLM answer replaced by rules) are reported. */
export type WarningSink = (what: string, warnings: readonly string[]) => void;

/** Uploads and summarizes a local CSV; the service keeps it as a dataset (`summary.dataset_id`). */
export async function summarizeCsv(
  api: Pick<AutotrainApi, 'summarizeDataset'>, file: string, signal: AbortSignal, warn: WarningSink, textgen: TextGenRequest,
): Promise<DatasetSummary> {
  const summary = await api.summarizeDataset({ file_path: file, textgen_config: textgen }, { signal });
  warn('summary', summary.warnings ?? []);
  return summary;
}

/** Summarizes a data set the service already holds (one registered from a database table or query). */
export async function summarizeDataset(
  api: Pick<AutotrainApi, 'summarizeByDatasetId'>, datasetId: string, signal: AbortSignal, warn: WarningSink, textgen: TextGenRequest,
): Promise<DatasetSummary> {
  const summary = await api.summarizeByDatasetId({ dataset_id: datasetId, textgen_config: textgen }, { signal });
  warn('summary', summary.warnings ?? []);
  return summary;
}

export async function fetchGoals(
  api: SuggestionApi, summary: DatasetSummary, signal: AbortSignal, warn: WarningSink, textgen: TextGenRequest,
): Promise<Goal[]> {
  const answer = await api.generateGoals({ summary, textgen_config: textgen }, { signal });
  warn('goals', answer.warnings);
  return answer.goals;
}

export async function fetchLabels(
  api: SuggestionApi, summary: DatasetSummary, signal: AbortSignal, warn: WarningSink, textgen: TextGenRequest,
): Promise<Label[]> {
  const answer = await api.generateLabels({ summary, textgen_config: textgen }, { signal });
  warn('labels', answer.warnings);
  return answer.labels;
}

export async function fetchRecommendations(
  api: SuggestionApi, summary: DatasetSummary, signal: AbortSignal, warn: WarningSink, textgen: TextGenRequest,
): Promise<Recommendation[]> {
  const answer = await api.generateFeatureEngineering({ summary, textgen_config: textgen }, { signal });
  warn('feature engineering', answer.warnings);
  return answer.recommendations;
}

/** Attaches a no-op handler so a rejection nobody awaits yet is not reported as unhandled; returns the promise. */
function settledQuietly<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * Takes the summary being made (of a CSV, or of a data set the service holds) and asks for labels, goals and
 * recommendations as soon as it arrives, so each wizard step only waits for what it shows.
 */
export function loadAutotrainData(
  api: SuggestionApi,
  fileName: string,
  summarizing: Promise<DatasetSummary>,
  signal: AbortSignal,
  warn: WarningSink,
  textgen: TextGenRequest,
): AutotrainData {
  const summary = settledQuietly(summarizing);
  return {
    fileName,
    summary,
    labels: settledQuietly(summary.then((s) => fetchLabels(api, s, signal, warn, textgen))),
    goals: settledQuietly(summary.then((s) => fetchGoals(api, s, signal, warn, textgen))),
    recommendations: settledQuietly(summary.then((s) => fetchRecommendations(api, s, signal, warn, textgen))),
  };
}
