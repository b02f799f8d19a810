import * as z from 'zod';
import { IdSchema } from './common';
import { DatasetSourceSchema } from './datasets';
import { AppliedEditSchema } from './edits';
import {
  CopiedFromSchema,
  EvaluationSchema,
  ExecutionSchema,
  FeatureInfoEntrySchema,
  MetricsSchema,
  ModelPayloadSchema,
  VersionSourceSchema,
} from './models';
import { ignoredFields } from './requestFields';

/** A partition's counts and evaluation as the service the version comes from answers them (its base value is the payload's). */
export const ImportedPartitionSchema = z.strictObject({
  partition: z.string().min(1),
  n_train: z.number().int().nonnegative(),
  n_test: z.number().int().nonnegative(),
  evaluation: EvaluationSchema.pick({ train: true, test: true, baseline: true, warnings: true })
    .nullable()
    .describe('GET /v1/models/evaluation/{partition_id} of the version copied, without its ids; null when it has none'),
});
export type ImportedPartition = z.infer<typeof ImportedPartitionSchema>;

/**
 * A version fitted on another service, with what it recorded there: its fitted model (the payload), metrics,
 * parameters, per-partition evaluations, feature information and lineage. Stored as it is, in one transaction.
 */
export const ImportVersionRequestSchema = z.strictObject({
  payload: z.strictObject(ModelPayloadSchema.omit({ version_id: true }).shape).describe('GET /v1/models/versions/{version_id}/payload of the version copied, without version_id'),
  source: VersionSourceSchema.describe('how the version was made where it comes from (train, refit, upload, autotrain)'),
  parent_version_id: IdSchema.nullable().default(null).describe('a version of the same model on this service (the copy of its parent), or null'),
  dataset_id: IdSchema.nullable().default(null).describe('a dataset of the team on this service (the copy of its dataset), or null'),
  parameters: z.record(z.string(), z.unknown()),
  test_metrics: MetricsSchema.nullable(),
  feature_info: z.array(FeatureInfoEntrySchema),
  partitions: z.array(ImportedPartitionSchema).min(1).describe("one per partition of the payload (a multiclass payload's partition once)"),
  execution: ExecutionSchema.nullable().default(null),
  dataset_source: DatasetSourceSchema.nullable().default(null),
  edits: z.array(AppliedEditSchema).default([]).describe('the hand edits the version applied to its parent, with who applied them and when'),
  copied_from: z.strictObject(CopiedFromSchema.shape),
  ...ignoredFields('team_id'),
});
export type ImportVersionRequest = z.input<typeof ImportVersionRequestSchema>;
export type ImportVersionRequestParsed = z.output<typeof ImportVersionRequestSchema>;

/** The same, as the first version of a new model (its target and type are the payload's). */
export const ImportModelRequestSchema = ImportVersionRequestSchema.extend({
  model_name: z.string().min(1),
  model_description: z.string().default(''),
});
export type ImportModelRequest = z.input<typeof ImportModelRequestSchema>;

export const ImportedVersionSchema = z.object({
  model_id: IdSchema,
  version_id: IdSchema,
  version_number: z.number().int().positive(),
});
export type ImportedVersion = z.infer<typeof ImportedVersionSchema>;
