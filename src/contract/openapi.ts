import * as z from 'zod';
import * as at from './autotrain';
import { ErrorBodySchema } from './common';
import * as cn from './connections';
import * as ds from './datasets';
import * as m from './models';
import { ConnectInfoSchema, HealthSchema, TeamSchema } from './system';
import * as vi from './versionImport';

type Method = 'get' | 'post' | 'put' | 'delete';

interface Operation {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  request?: z.ZodType;
  /** Set for a multipart upload or a CSV body instead of JSON. */
  upload?: 'multipart' | 'multipart-or-csv';
  /** An upload operation's JSON alternative to the file. */
  json?: z.ZodType;
  response?: z.ZodType;
  /** Set for an answer that is text, not JSON: its media types. */
  produces?: string[];
  status?: 200 | 202 | 204;
  noAuth?: boolean;
  query?: Array<{ name: string; required: boolean }>;
}

/**
 * Every operation of the /v1 contract, from which the OpenAPI document is generated. Made by a call marked pure, so a
 * bundle that never reads it (the extension's) leaves the table out.
 */
export const OPERATIONS: Operation[] = /* @__PURE__ */ operations();

function operations(): Operation[] {
  return [
    { method: 'get', path: '/v1/health', operationId: 'health', summary: 'Service health and local features', response: HealthSchema, noAuth: true },
    { method: 'get', path: '/v1/openapi.json', operationId: 'openapi', summary: 'This document', noAuth: true },
    { method: 'get', path: '/v1/client/connect', operationId: 'connect', summary: 'Who the key belongs to', response: ConnectInfoSchema },
    { method: 'get', path: '/v1/teams', operationId: 'teams', summary: 'Teams the key may use', response: z.array(TeamSchema) },
    { method: 'post', path: '/v1/models/create', operationId: 'create_model', summary: 'Upload a fitted model', request: m.CreateModelRequestSchema, response: m.CreateModelResponseSchema },
    { method: 'post', path: '/v1/models/add-version', operationId: 'add_version', summary: 'Upload a new version of a model', request: m.AddVersionRequestSchema, response: m.AddVersionResponseSchema },
    { method: 'post', path: '/v1/models/import', operationId: 'import_model', summary: 'Store a version fitted on another service as the first version of a new model (local)', request: vi.ImportModelRequestSchema, response: vi.ImportedVersionSchema },
    { method: 'post', path: '/v1/models/{model_id}/versions/import', operationId: 'import_version', summary: 'Store a version fitted on another service as a new version of a model (local)', request: vi.ImportVersionRequestSchema, response: vi.ImportedVersionSchema },
    { method: 'get', path: '/v1/models/teams/{team_id}', operationId: 'list_team_models', summary: 'Models of a team', response: z.array(m.ModelInfoSchema) },
    { method: 'get', path: '/v1/models/{model_id}', operationId: 'get_model', summary: 'One model', response: m.ModelInfoSchema },
    { method: 'delete', path: '/v1/models/{model_id}', operationId: 'delete_model', summary: 'Delete a model and its versions (local)', status: 204 },
    { method: 'get', path: '/v1/models/versions/{model_id}', operationId: 'list_model_versions', summary: 'Versions of a model, newest first', response: z.array(m.ModelVersionSchema) },
    { method: 'get', path: '/v1/models/partitions/{version_id}', operationId: 'list_model_version_partitions', summary: 'Partitions of a version ("latest" needs model_id)', response: m.PartitionListSchema, query: [{ name: 'model_id', required: false }] },
    { method: 'put', path: '/v1/preprocessors/link-preprocessor', operationId: 'link_preprocessor', summary: 'Link a preprocessor version to a model version', request: ds.LinkPreprocessorRequestSchema, status: 204 },
    { method: 'post', path: '/v1/models/train', operationId: 'train_model', summary: 'Train a model', request: m.TrainRequestSchema, response: m.TrainResultSchema },
    { method: 'post', path: '/v1/models/train/jobs', operationId: 'start_training', summary: 'Train a model as a job (202): progress and cancel through the training routes', request: m.TrainRequestSchema, response: at.AutotrainResponseSchema, status: 202 },
    { method: 'post', path: '/v1/models/versions/{version_id}/refit', operationId: 'refit_model', summary: 'Refit a version with new parameters, or with hand edits of its steps', request: m.RefitRequestSchema, response: m.RefitResultSchema },
    { method: 'post', path: '/v1/models/versions/{version_id}/preview-edits', operationId: 'preview_edits', summary: 'Steps and metrics of a version after hand edits, nothing saved (local)', request: m.PreviewEditsRequestSchema, response: m.PreviewEditsResultSchema },
    { method: 'get', path: '/v1/models/profile/{version_id}', operationId: 'get_model_profile', summary: 'Profile of a version', response: m.ModelProfileSchema },
    { method: 'get', path: '/v1/models/evaluation/{partition_id}', operationId: 'get_model_evaluation', summary: 'Evaluation of a partition', response: m.EvaluationSchema },
    { method: 'get', path: '/v1/models/feature-info/{version_id}', operationId: 'get_feature_info', summary: 'Feature information of a version', response: m.FeatureInfoSchema },
    { method: 'get', path: '/v1/models/versions/{version_id}/payload', operationId: 'get_model_payload', summary: 'Fitted model of a version as partition payloads (local)', response: m.ModelPayloadSchema },
    { method: 'get', path: '/v1/models/versions/{version_id}/report', operationId: 'get_model_report', summary: 'A report of a version: one HTML page with inline SVG charts, or Markdown with format=markdown (local)', produces: ['text/html', 'text/markdown'], query: [{ name: 'format', required: false }] },
    { method: 'post', path: '/v1/models/versions/{version_id}/predict', operationId: 'predict', summary: 'Predict with a version (local)', request: m.PredictRequestSchema, response: z.union([m.PredictionsSchema, m.PredictionsTableSchema]) },
    { method: 'post', path: '/v1/autotrain/summarize-dataset', operationId: 'summarize_dataset', summary: 'Summarize an uploaded CSV', upload: 'multipart', request: at.SummarizeDatasetFormSchema, response: at.DatasetSummarySchema },
    { method: 'post', path: '/v1/autotrain/summarize', operationId: 'summarize_by_dataset_id', summary: 'Summarize a stored dataset', request: at.SummarizeByIdRequestSchema, response: at.DatasetSummarySchema },
    { method: 'post', path: '/v1/autotrain/generate_goals', operationId: 'generate_goals', summary: 'Analysis goals for a dataset', request: at.GenerateGoalsRequestSchema, response: at.GoalsResponseSchema },
    { method: 'post', path: '/v1/autotrain/generate_labels', operationId: 'generate_labels', summary: 'Candidate target columns', request: at.GenerateLabelsRequestSchema, response: at.LabelsResponseSchema },
    { method: 'post', path: '/v1/autotrain/generate_feature_engineering', operationId: 'generate_feature_engineering', summary: 'Feature engineering recommendations', request: at.GenerateFeatureEngineeringRequestSchema, response: at.FeatureEngineeringResponseSchema },
    { method: 'post', path: '/v1/autotrain/start_autotrain', operationId: 'start_autotrain', summary: 'Start an autotrain job', request: at.StartAutotrainRequestSchema, response: at.AutotrainResponseSchema, status: 202 },
    { method: 'get', path: '/v1/autotrain/check_training_status', operationId: 'check_training_status', summary: 'Status of a training job', response: at.TrainingStatusSchema, query: [{ name: 'training_id', required: true }, { name: 'team_id', required: false }] },
    { method: 'delete', path: '/v1/autotrain/trainings/{training_id}', operationId: 'cancel_training', summary: 'Cancel a training job (local)', response: at.TrainingStatusSchema },
    { method: 'post', path: '/v1/autotrain/train_manual', operationId: 'train_manual', summary: 'Train from a preprocessor version', request: at.TrainManualRequestSchema, response: at.AutotrainResponseSchema, status: 202 },
    { method: 'post', path: '/v1/autotrain/visualize', operationId: 'visualize_data', summary: 'Chart code for a goal', request: at.VisualizeRequestSchema, response: at.VisualizationResponseSchema },
    { method: 'post', path: '/v1/autotrain/insights', operationId: 'generate_insights', summary: 'Computed insights for a goal', request: at.InsightsRequestSchema, response: at.InsightsSchema },
    { method: 'post', path: '/v1/datasets', operationId: 'upload_dataset', summary: 'Upload a CSV or Parquet dataset, or register as JSON a table or query of a connection, or a file the local service reads where it lies (local)', upload: 'multipart-or-csv', request: ds.UploadDatasetFormSchema, json: ds.RegisterSourceDatasetRequestSchema, response: ds.DatasetSchema },
    { method: 'get', path: '/v1/datasets', operationId: 'list_datasets', summary: 'Datasets of the team (local)', response: z.array(ds.DatasetSchema) },
    { method: 'delete', path: '/v1/datasets/{dataset_id}', operationId: 'delete_dataset', summary: 'Delete a dataset and its stored file (local)', status: 204 },
    { method: 'get', path: '/v1/datasets/{dataset_id}/file', operationId: 'download_dataset', summary: 'The file of an uploaded dataset, as it was uploaded: CSV or Parquet (local)' },
    { method: 'get', path: '/v1/datasets/public', operationId: 'list_public_datasets', summary: 'Datasets that ship with the service (local)', response: z.array(ds.PublicDatasetSchema) },
    { method: 'get', path: '/v1/connections', operationId: 'list_connections', summary: 'Named database connections (local)', response: z.array(cn.ConnectionSchema) },
    { method: 'post', path: '/v1/connections', operationId: 'add_connection', summary: 'Test and add a connection, kept in memory (local)', request: cn.AddConnectionRequestSchema, response: cn.ConnectionSchema },
    { method: 'delete', path: '/v1/connections/{name}', operationId: 'remove_connection', summary: 'Remove a connection added by add_connection (local)', status: 204 },
    { method: 'get', path: '/v1/connections/{name}/tables', operationId: 'list_source_tables', summary: 'Tables and views a connection can read (local)', response: z.array(cn.SourceTableSchema) },
    { method: 'get', path: '/v1/connections/{name}/tables/{schema}/{table}/columns', operationId: 'list_source_columns', summary: 'Columns of a table of a connection (local)', response: z.array(cn.SourceColumnSchema) },
    { method: 'post', path: '/v1/preprocessors', operationId: 'create_preprocessor', summary: 'Create a preprocessor (local)', request: ds.CreatePreprocessorRequestSchema, response: ds.CreatePreprocessorResponseSchema },
    { method: 'get', path: '/v1/preprocessors', operationId: 'list_preprocessors', summary: 'Preprocessors of the team (local)', response: z.array(ds.PreprocessorSchema) },
    { method: 'post', path: '/v1/preprocessors/{preprocessor_id}/versions', operationId: 'add_preprocessor_version', summary: 'Add a preprocessor version (local)', request: ds.AddPreprocessorVersionRequestSchema, response: ds.AddPreprocessorVersionResponseSchema },
    { method: 'get', path: '/v1/preprocessors/{preprocessor_id}/versions', operationId: 'list_preprocessor_versions', summary: 'Versions of a preprocessor (local)', response: z.array(ds.PreprocessorVersionSchema) },
  ];
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

function requestBody(op: Operation) {
  if (!op.request) return undefined;
  const schema = jsonSchema(op.request, 'input');
  if (op.upload === 'multipart') return { required: true, content: { 'multipart/form-data': { schema } } };
  if (op.upload === 'multipart-or-csv') {
    return {
      required: true,
      content: {
        'multipart/form-data': { schema },
        'text/csv': { schema: { type: 'string' } },
        ...(op.json ? { 'application/json': { schema: jsonSchema(op.json, 'input') } } : {}),
      },
    };
  }
  return { required: true, content: { 'application/json': { schema } } };
}

function operationObject(op: Operation) {
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const queryParams = (op.query ?? []).map((q) => ({ name: q.name, in: 'query', required: q.required, schema: { type: 'string' } }));
  const status = op.status ?? 200;
  const success = op.response
    ? { description: 'Success', content: { 'application/json': { schema: jsonSchema(op.response, 'output') } } }
    : op.produces
      ? { description: 'Success', content: Object.fromEntries(op.produces.map((type) => [type, { schema: { type: 'string' } }])) }
      : { description: status === 204 ? 'No content' : 'Success' };
  const responses: Record<string, unknown> = { [String(status)]: success };
  if (!op.noAuth) {
    responses['401'] = errorResponse('Missing or unknown API key');
    responses['403'] = errorResponse('Team not allowed');
    responses['404'] = errorResponse('Unknown id');
  }
  if (op.request) {
    responses['400'] = errorResponse('Malformed request');
    responses['422'] = errorResponse('Validation failure');
  }
  if (op.request) responses['413'] = errorResponse(op.upload ? 'Upload over the size limit' : 'Body over a size limit');
  if (status === 202) responses['429'] = errorResponse('Too many queued jobs');
  return {
    operationId: op.operationId,
    summary: op.summary,
    parameters: [...pathParams, ...queryParams],
    ...(op.request ? { requestBody: requestBody(op) } : {}),
    responses,
    ...(op.noAuth ? { security: [] } : {}),
  };
}

/** The OpenAPI 3.1 document of the /v1 contract. */
export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = operationObject(op);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'XModels API', version },
    paths,
    components: {
      schemas: { ErrorBody: jsonSchema(ErrorBodySchema, 'output') },
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'api_key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    security: [{ apiKey: [] }, { bearer: [] }],
  };
}
