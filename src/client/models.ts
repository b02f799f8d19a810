import { basename, resolve } from 'node:path';
import type { LinkPreprocessorRequest } from '../contract/datasets';
import {
  AddVersionResponseSchema,
  CreateModelResponseSchema,
  EvaluationSchema,
  FeatureInfoSchema,
  ModelInfoSchema,
  ModelPayloadSchema,
  ModelVersionSchema,
  PartitionListSchema,
  PredictionsSchema,
  PreviewEditsResultSchema,
  ModelProfileSchema,
  RefitResultSchema,
  TrainResultSchema,
  type AddVersionResponse,
  type CreateModelResponse,
  type Evaluation,
  type FeatureInfo,
  type ModelInfo,
  type ModelPayload,
  type ModelVersion,
  type PartitionList,
  type PredictRequest,
  type Predictions,
  type PreviewEditsRequest,
  type PreviewEditsResult,
  type ModelProfile,
  type RefitRequest,
  type RefitResult,
  type TrainRequest,
  type TrainResult,
} from '../contract/models';
import { AutotrainResponseSchema, type AutotrainResponse } from '../contract/autotrain';
import { ImportedVersionSchema, type ImportedVersion, type ImportModelRequest, type ImportVersionRequest } from '../contract/versionImport';
import * as z from 'zod';
import { copyModel, copyPlan, type CopyModelOptions, type CopyReport, type CopySource, type CopyTarget } from './copyModel';
import { exactlyOneSource } from './dataSource';
import type { DatasetsApi } from './datasets';
import { addVersionRequest, createModelRequest, type AddVersionParams, type CreateModelParams } from './fittedModel';
import { segment, type CallOptions, type Transport } from './transport';

/** TrainRequest plus `file_path`: a local CSV that is uploaded as a dataset first, then trained on by its id. */
export type TrainModelParams = TrainRequest & { file_path?: string };

/** PredictRequest plus `file_path`: a local CSV that is uploaded as a dataset first. */
export type PredictParams = PredictRequest & { file_path?: string };

export interface ListPartitionsOptions extends CallOptions {
  /** Required when `version_id` is `latest`. */
  model_id?: string;
}

const trainSources = ['dataset_id', 'dataset_name', 'csv_content', 'file_path'] as const;
const predictSources = ['dataset_id', 'csv_content', 'file_path'] as const;

/** The models group: upload, list, inspect, train, refit and predict. */
export class ModelsApi {
  constructor(
    private readonly transport: Transport,
    private readonly datasets: DatasetsApi,
    private readonly sessionTeam: (options?: CallOptions) => Promise<string>,
  ) {}

  /** Uploads a model: ready PartitionPayloads, or a fitted engine model with the data to evaluate it on. */
  async createModel(params: CreateModelParams, options?: CallOptions): Promise<CreateModelResponse> {
    return this.transport.postJson('models/create', createModelRequest(params), CreateModelResponseSchema, options);
  }

  /** Adds a version to a model: ready PartitionPayloads, or a fitted engine model with its data. */
  async addVersion(params: AddVersionParams, options?: CallOptions): Promise<AddVersionResponse> {
    return this.transport.postJson('models/add-version', addVersionRequest(params), AddVersionResponseSchema, options);
  }

  /** Stores a version fitted on another service as the first version of a new model (feature `import_version`). */
  async importModel(params: ImportModelRequest, options?: CallOptions): Promise<ImportedVersion> {
    return this.transport.postJson('models/import', params, ImportedVersionSchema, options);
  }

  /** Stores a version fitted on another service as a new version of `model_id` (feature `import_version`). */
  async importVersion(model_id: string, params: ImportVersionRequest, options?: CallOptions): Promise<ImportedVersion> {
    return this.transport.postJson(`models/${segment(model_id)}/versions/import`, params, ImportedVersionSchema, options);
  }

  /**
   * What `copyTo` would copy, read before anything is written: the model, its versions oldest first (with every
   * field the service sent), and the datasets they were fitted on with their sizes and whether each can be copied.
   */
  async copyPlan(model_id: string, options?: CallOptions): ReturnType<typeof copyPlan> {
    return copyPlan(this.copySource(), model_id, options);
  }

  /**
   * Copies the model with its versions to `target`, another service's client (or this service's, for another
   * team): as a new model, or with `into` as new versions of one there; `withDatasets` copies the uploaded datasets
   * too. Resolves with a report of what was copied (new ids) and what was not and why; `signal` stops it between
   * versions, so the target holds whole versions only.
   */
  async copyTo(target: CopyTarget, model_id: string, options?: CopyModelOptions): Promise<CopyReport> {
    return copyModel(this.copySource(), target, model_id, options);
  }

  private copySource(): CopySource {
    return {
      models: {
        getModel: (id, o) => this.getModel(id, o),
        listVersionsAsSent: (id, o) => this.transport.get(`models/versions/${segment(id)}`, z.array(ModelVersionSchema.loose()), o),
        getModelPayload: (id, o) => this.getModelPayload(id, o),
        listModelVersionPartitions: (id, o) => this.listModelVersionPartitions(id, o),
        getModelEvaluation: (id, o) => this.getModelEvaluation(id, o),
        getFeatureInfo: (id, o) => this.getFeatureInfo(id, o),
      },
      datasets: this.datasets,
    };
  }

  /** Models of a team; the connected team when `team_id` is omitted. */
  async listTeamModels(team_id?: string, options?: CallOptions): Promise<ModelInfo[]> {
    const team = team_id ?? (await this.sessionTeam(options));
    return this.transport.get(`models/teams/${segment(team)}`, z.array(ModelInfoSchema), options);
  }

  async getModel(model_id: string, options?: CallOptions): Promise<ModelInfo> {
    return this.transport.get(`models/${segment(model_id)}`, ModelInfoSchema, options);
  }

  /** Deletes a model with all its versions (a local-service addition: feature `delete_model`). */
  async deleteModel(model_id: string, options?: CallOptions): Promise<void> {
    return this.transport.send({ method: 'DELETE', path: `models/${segment(model_id)}`, schema: undefined, signal: options?.signal });
  }

  /** Versions of a model, newest first. */
  async listModelVersions(model_id: string, options?: CallOptions): Promise<ModelVersion[]> {
    return this.transport.get(`models/versions/${segment(model_id)}`, z.array(ModelVersionSchema), options);
  }

  /** Partitions of a version; `version_id` may be `latest` together with `model_id`. */
  async listModelVersionPartitions(version_id: string, options?: ListPartitionsOptions): Promise<PartitionList> {
    return this.transport.send({
      method: 'GET',
      path: `models/partitions/${segment(version_id)}`,
      query: { model_id: options?.model_id },
      schema: PartitionListSchema,
      signal: options?.signal,
    });
  }

  async linkPreprocessor(params: LinkPreprocessorRequest, options?: CallOptions): Promise<void> {
    return this.transport.send({
      method: 'PUT',
      path: 'preprocessors/link-preprocessor',
      body: { kind: 'json', value: params },
      schema: undefined,
      signal: options?.signal,
    });
  }

  /**
   * Trains a model (or, with `model_id`, a new version of one) on exactly one data source. A `file_path` is streamed
   * to the service as a dataset first (on the local service, registered where it lies), so the result can be refit
   * later on the same `dataset_id`.
   */
  async trainModel(params: TrainModelParams, options?: CallOptions): Promise<TrainResult> {
    const body = await this.withUploadedFile(params, trainSources, 'trainModel', options);
    try {
      return await this.transport.postJson('models/train', body, TrainResultSchema, options);
    } catch (error) {
      // A failed train leaves nothing behind: the dataset uploaded for it goes too.
      if (params.file_path !== undefined && body.dataset_id) await this.datasets.delete(body.dataset_id).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Starts the same train as `trainModel` on a dataset (`dataset_id` or `dataset_name`) as a job (202): follow it with
   * `autotrain.waitForTraining`, which reports its progress (a fit where the rows live reports its scans), and stop
   * it with `autotrain.cancelTraining`, which cancels the statement running in the database.
   */
  async startTraining(params: TrainRequest, options?: CallOptions): Promise<AutotrainResponse> {
    return this.transport.postJson('models/train/jobs', params, AutotrainResponseSchema, options);
  }

  /** Refits a version with new parameters, or (with `edits`) saves hand edits of its steps as a new version. */
  async refitModel(version_id: string, params: RefitRequest, options?: CallOptions): Promise<RefitResult> {
    return this.transport.postJson(`models/versions/${segment(version_id)}/refit`, params, RefitResultSchema, options);
  }

  /**
   * A version's steps after hand edits, with its train and test metrics before and after them; nothing is saved (a
   * local-service addition: feature `edits`). `refitModel` with the same edits saves them and reports the same metrics.
   */
  async previewEdits(version_id: string, params: PreviewEditsRequest, options?: CallOptions): Promise<PreviewEditsResult> {
    return this.transport.postJson(`models/versions/${segment(version_id)}/preview-edits`, params, PreviewEditsResultSchema, options);
  }

  async getModelProfile(version_id: string, options?: CallOptions): Promise<ModelProfile> {
    return this.transport.get(`models/profile/${segment(version_id)}`, ModelProfileSchema, options);
  }

  /**
   * A version's report (a local-service addition: feature `model_report`): one HTML page that opens offline in any
   * browser, or with `markdown` the same as Markdown, its charts SVG images inside `data:` URIs.
   */
  async getModelReport(version_id: string, format: 'html' | 'markdown' = 'html', options?: CallOptions): Promise<string> {
    return this.transport.getText(`models/versions/${segment(version_id)}/report`, { format }, options);
  }

  async getModelEvaluation(partition_id: string, options?: CallOptions): Promise<Evaluation> {
    return this.transport.get(`models/evaluation/${segment(partition_id)}`, EvaluationSchema, options);
  }

  async getFeatureInfo(version_id: string, options?: CallOptions): Promise<FeatureInfo> {
    return this.transport.get(`models/feature-info/${segment(version_id)}`, FeatureInfoSchema, options);
  }

  /** The version's fitted model as partition payloads (a local-service addition: feature `model_payload`). */
  async getModelPayload(version_id: string, options?: CallOptions): Promise<ModelPayload> {
    return this.transport.get(`models/versions/${segment(version_id)}/payload`, ModelPayloadSchema, options);
  }

  /** Predicts with a version (a local-service addition: feature `predict`); rows come back in input order. */
  async predict(version_id: string, params: PredictParams, options?: CallOptions): Promise<Predictions> {
    const body = await this.withUploadedFile(params, predictSources, 'predict', options);
    return this.transport.postJson(`models/versions/${segment(version_id)}/predict`, body, PredictionsSchema, options);
  }

  /**
   * Checks the one-source rule, then replaces a `file_path` by the `dataset_id` of the uploaded file, or on the local
   * service (`filesInPlace`) of the file registered where it lies.
   */
  private async withUploadedFile<P extends { file_path?: string; dataset_id?: string }>(
    params: P,
    sources: readonly string[],
    operation: string,
    options: CallOptions | undefined,
  ): Promise<Omit<P, 'file_path'>> {
    exactlyOneSource(params, sources, operation);
    const { file_path, ...rest } = params;
    if (file_path === undefined) return rest;
    const name = basename(file_path);
    const dataset = this.transport.filesInPlace
      ? await this.datasets.register({ name, source: { file: resolve(file_path) } }, options)
      : await this.datasets.upload({ file_path, name }, options);
    return { ...rest, dataset_id: dataset.dataset_id };
  }
}
