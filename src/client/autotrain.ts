import * as z from 'zod';
import {
  AutotrainResponseSchema,
  DatasetSummarySchema,
  FeatureEngineeringResponseSchema,
  GoalsResponseSchema,
  InsightsSchema,
  LabelsResponseSchema,
  TrainingStateSchema,
  TrainingStatusSchema,
  VisualizationResponseSchema,
  type AutotrainResponse,
  type DatasetSummary,
  type FeatureEngineeringResponse,
  type GenerateFeatureEngineeringBodySchema,
  type GenerateGoalsBodySchema,
  type GenerateLabelsBodySchema,
  type GoalsResponse,
  type Insights,
  type InsightsBodySchema,
  type LabelsResponse,
  type StartAutotrainBodySchema,
  type SummarizeByIdBodySchema,
  type TextGenConfigSchema,
  type TrainingState,
  type TrainingStatus,
  type TrainManualBodySchema,
  type VisualizationResponse,
  type VisualizeBodySchema,
} from '../contract/autotrain';
import { exactlyOneSource } from './dataSource';
import { ErrorCodes, XModelsApiError } from './errors';
import { sleep } from './retry';
import { multipartBody } from './upload';
import { segment, type CallOptions, type Transport } from './transport';

/** Every autotrain call may name a team; the session team is used when it does not. */
export interface TeamParam {
  team_id?: string | null;
}

export interface SummarizeDatasetParams extends TeamParam {
  /** A local CSV, streamed to the service (it becomes a dataset, see `DatasetSummary.dataset_id`). */
  file_path?: string;
  /** CSV text, as an alternative to `file_path`. */
  csv_content?: string;
  /** File name reported for `csv_content` (default `data.csv`). */
  file_name?: string;
  textgen_config?: z.input<typeof TextGenConfigSchema>;
}
export type SummarizeByDatasetIdParams = z.input<typeof SummarizeByIdBodySchema> & TeamParam;
export type GenerateGoalsParams = z.input<typeof GenerateGoalsBodySchema> & TeamParam;
export type GenerateLabelsParams = z.input<typeof GenerateLabelsBodySchema> & TeamParam;
export type GenerateFeatureEngineeringParams = z.input<typeof GenerateFeatureEngineeringBodySchema> & TeamParam;
export type StartAutotrainParams = z.input<typeof StartAutotrainBodySchema> & TeamParam;
export type TrainManualParams = z.input<typeof TrainManualBodySchema> & TeamParam;
export type VisualizeDataParams = z.input<typeof VisualizeBodySchema> & TeamParam;
export type GenerateInsightsParams = z.input<typeof InsightsBodySchema> & TeamParam;

export interface TrainingStatusOptions extends CallOptions {
  team_id?: string;
}

export interface WaitForTrainingOptions extends TrainingStatusOptions {
  /** Called with every status polled, the final one included. */
  onProgress?: (status: TrainingStatus) => void;
  /** Milliseconds between polls (default 1000). */
  interval?: number;
}

/** The hosted service has reported `done` and `error`; they mean `completed` and `failed`. */
const hostedStates: Record<string, TrainingState> = { done: 'completed', error: 'failed' };
const TrainingStatusResponseSchema = TrainingStatusSchema.extend({
  status: z.union([TrainingStateSchema, z.enum(['done', 'error']).transform((state) => hostedStates[state])]),
});

/** The autotrain group: summarize a dataset, suggest goals, labels and features, and run training jobs. */
export class AutotrainApi {
  constructor(private readonly transport: Transport) {}

  /** Summarizes a CSV sent as multipart `file`; the service keeps it as a dataset. */
  async summarizeDataset(params: SummarizeDatasetParams, options?: CallOptions): Promise<DatasetSummary> {
    const source = exactlyOneSource(params, ['file_path', 'csv_content'], 'summarizeDataset');
    const body = await multipartBody(
      'file',
      source === 'file_path'
        ? { path: params.file_path as string }
        : { content: params.csv_content as string, fileName: params.file_name ?? 'data.csv' },
      {
        team_id: this.team(params) ?? undefined,
        textgen_config: params.textgen_config === undefined ? undefined : JSON.stringify(params.textgen_config),
      },
    );
    return this.transport.send({
      method: 'POST',
      path: 'autotrain/summarize-dataset',
      body,
      schema: DatasetSummarySchema,
      signal: options?.signal,
    });
  }

  async summarizeByDatasetId(params: SummarizeByDatasetIdParams, options?: CallOptions): Promise<DatasetSummary> {
    return this.call('autotrain/summarize', params, DatasetSummarySchema, options);
  }

  async generateGoals(params: GenerateGoalsParams, options?: CallOptions): Promise<GoalsResponse> {
    return this.call('autotrain/generate_goals', params, GoalsResponseSchema, options);
  }

  async generateLabels(params: GenerateLabelsParams, options?: CallOptions): Promise<LabelsResponse> {
    return this.call('autotrain/generate_labels', params, LabelsResponseSchema, options);
  }

  async generateFeatureEngineering(params: GenerateFeatureEngineeringParams, options?: CallOptions): Promise<FeatureEngineeringResponse> {
    return this.call('autotrain/generate_feature_engineering', params, FeatureEngineeringResponseSchema, options);
  }

  /** Starts a training job (202); follow it with `waitForTraining`. */
  async startAutotrain(params: StartAutotrainParams, options?: CallOptions): Promise<AutotrainResponse> {
    return this.call('autotrain/start_autotrain', params, AutotrainResponseSchema, options);
  }

  async checkTrainingStatus(training_id: string, options?: TrainingStatusOptions): Promise<TrainingStatus> {
    return this.transport.get('autotrain/check_training_status', TrainingStatusResponseSchema, options, {
      training_id,
      team_id: options?.team_id ?? this.transport.teamId,
    });
  }

  /** Cancels a pending or running job (a local-service addition: feature `cancel_training`); 409 once it ended. */
  async cancelTraining(training_id: string, options?: CallOptions): Promise<TrainingStatus> {
    return this.transport.send({
      method: 'DELETE',
      path: `autotrain/trainings/${segment(training_id)}`,
      schema: TrainingStatusResponseSchema,
      signal: options?.signal,
    });
  }

  /** Starts a training job on a preprocessor version's dataset (202). */
  async trainManual(params: TrainManualParams, options?: CallOptions): Promise<AutotrainResponse> {
    return this.call('autotrain/train_manual', params, AutotrainResponseSchema, options);
  }

  async visualizeData(params: VisualizeDataParams, options?: CallOptions): Promise<VisualizationResponse> {
    return this.call('autotrain/visualize', params, VisualizationResponseSchema, options);
  }

  async generateInsights(params: GenerateInsightsParams, options?: CallOptions): Promise<Insights> {
    return this.call('autotrain/insights', params, InsightsSchema, options);
  }

  /**
   * Polls a job until it ends. Resolves with the `completed` status; rejects with `TRAINING_FAILED` or
   * `TRAINING_CANCELLED`, and with `ABORTED` when `signal` fires.
   */
  async waitForTraining(training_id: string, options: WaitForTrainingOptions = {}): Promise<TrainingStatus> {
    const interval = options.interval ?? 1000;
    for (;;) {
      const status = await this.checkTrainingStatus(training_id, options);
      options.onProgress?.(status);
      if (status.status === 'completed') return status;
      if (status.status === 'failed' || status.status === 'cancelled') throw trainingEnded(status);
      await sleep(interval, options.signal, `Waiting for training ${training_id}`);
    }
  }

  /** Autotrain bodies travel as `{team_id, req}`. */
  private call<S extends z.ZodType>(path: string, params: TeamParam, schema: S, options: CallOptions | undefined): Promise<z.output<S>> {
    const { team_id: _team, ...req } = params;
    return this.transport.postJson(path, { team_id: this.team(params), req }, schema, options);
  }

  private team(params: TeamParam): string | null {
    return params.team_id ?? this.transport.teamId ?? null;
  }
}

function trainingEnded(status: TrainingStatus): XModelsApiError {
  if (status.status === 'cancelled') {
    return new XModelsApiError({
      status: 0,
      code: ErrorCodes.trainingCancelled,
      detail: `Training ${status.training_id} was cancelled.`,
    });
  }
  const reason = status.error || 'the service gave no reason';
  return new XModelsApiError({
    status: 0,
    code: ErrorCodes.trainingFailed,
    detail: `Training ${status.training_id} failed: ${reason}.`,
    suggestion:
      reason === 'interrupted'
        ? 'The service stopped while the job ran; start the training again.'
        : 'Check the dataset and the label column, then start the training again.',
  });
}
