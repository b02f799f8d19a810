/** Typed client of the XModels /v1 API, usable from any Node program (it has no editor dependency). */
export { XModelsClient, type ConnectOptions } from './client';
export { XModelsApiError, ErrorCodes, type XModelsErrorField } from './errors';
export type { XModelsClientOptions, CallOptions, RetryInfo, DownloadedBody } from './transport';
export type { CopyModelOptions, CopyProgress, CopyReport, CopiedVersion, CopiedDataset, CopyTarget, PlannedDataset } from './copyModel';
export type { ModelsApi, TrainModelParams, PredictParams, ListPartitionsOptions } from './models';
export type { CreateModelParams, AddVersionParams, CreateModelFromFitted, AddVersionFromFitted, FittedModelData } from './fittedModel';
export type {
  AutotrainApi,
  TeamParam,
  SummarizeDatasetParams,
  SummarizeByDatasetIdParams,
  GenerateGoalsParams,
  GenerateLabelsParams,
  GenerateFeatureEngineeringParams,
  StartAutotrainParams,
  TrainManualParams,
  VisualizeDataParams,
  GenerateInsightsParams,
  TrainingStatusOptions,
  WaitForTrainingOptions,
} from './autotrain';
export type { DatasetsApi, UploadDatasetParams } from './datasets';
export type { PreprocessorsApi } from './preprocessors';
export type { ConnectionsApi } from './connections';
