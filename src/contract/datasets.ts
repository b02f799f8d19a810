import * as z from 'zod';
import { IdSchema, TimestampSchema } from './common';
import { ConnectionNameSchema } from './connections';
import { ignoredFields } from './requestFields';

/** Where a dataset's rows live when they stay in a database: its table or query, and the connection's name. */
export const DatasetSourceSchema = z.object({
  connection: ConnectionNameSchema,
  table: z.string().optional().describe('"name" or "schema.name"'),
  query: z.string().optional().describe('one read-only SELECT or WITH statement'),
});
export type DatasetSource = z.infer<typeof DatasetSourceSchema>;

/** A file on the local service's own machine whose rows are read where it lies, and the state it was last read in. */
export const DatasetFileSchema = z.object({
  path: z.string().describe('the absolute path of the .parquet or .csv file'),
  modified: TimestampSchema.describe("the file's modification time when it was last read; size_bytes is its size then"),
});
export type DatasetFile = z.infer<typeof DatasetFileSchema>;

export const DatasetSchema = z.object({
  dataset_id: IdSchema,
  name: z.string(),
  rows: z.number().int().nonnegative(),
  columns: z.array(z.string()),
  size_bytes: z.number().int().nonnegative(),
  created: TimestampSchema,
  source: DatasetSourceSchema.nullable().optional().describe('null for an uploaded file; rows and columns are then counted in the source'),
  file: DatasetFileSchema.nullable().optional().describe('a local file read where it lies (never copied); null for an upload or a connection'),
});
export type Dataset = z.infer<typeof DatasetSchema>;

/**
 * `POST /v1/datasets` as JSON: a table or a query of a named connection, or (on the local service only) a file of its
 * machine, registered without copying its rows.
 */
export const RegisterSourceDatasetRequestSchema = z.strictObject({
  name: z.string().min(1).optional(),
  source: z.union([
    z.strictObject({ connection: ConnectionNameSchema, table: z.string().min(1) }),
    z.strictObject({ connection: ConnectionNameSchema, query: z.string().min(1) }),
    z.strictObject({ file: z.string().min(1).describe('an absolute path of a .parquet or .csv file') }),
  ]),
  ...ignoredFields('team_id'),
});

/** `POST /v1/datasets` as a multipart form: the file and its text fields. */
export const UploadDatasetFormSchema = z.strictObject({
  file: z.string().describe('The CSV or Parquet file'),
  name: z.string().optional(),
  ...ignoredFields('team_id'),
});
export type RegisterSourceDatasetRequest = z.infer<typeof RegisterSourceDatasetRequestSchema>;
/** A registration of a connection's table or query (not of a local file). */
export type RegisterConnectionDatasetRequest = RegisterSourceDatasetRequest & { source: Exclude<RegisterSourceDatasetRequest['source'], { file: string }> };

export const PublicDatasetSchema = z.object({
  name: z.string(),
  description: z.string(),
  rows: z.number().int().nonnegative(),
  columns: z.array(z.string()),
  suggested_target: z.string().nullable(),
});
export type PublicDataset = z.infer<typeof PublicDatasetSchema>;

const column = z.string().min(1);

export const DropColumnsStepSchema = z.object({ type: z.literal('drop_columns'), columns: z.array(column).min(1) });
export const FillMissingStepSchema = z.object({
  type: z.literal('fill_missing'),
  column,
  strategy: z.enum(['mean', 'median', 'mode', 'constant']),
  value: z.union([z.string(), z.number()]).optional(),
});
export const Log1pStepSchema = z.object({ type: z.literal('log1p'), column });
export const ClipStepSchema = z.object({
  type: z.literal('clip'),
  column,
  min: z.number().optional(),
  max: z.number().optional(),
});
export const DatePartSchema = z.enum(['year', 'month', 'day', 'weekday', 'hour']);
export const DatePartsStepSchema = z.object({
  type: z.literal('date_parts'),
  column,
  parts: z.array(DatePartSchema).min(1),
});
export const CondenseCategoriesStepSchema = z.object({
  type: z.literal('condense_categories'),
  column,
  min_freq: z.number().min(0).max(1),
});
export const TextCleanStepSchema = z.object({
  type: z.literal('text_clean'),
  column,
  lower: z.boolean().optional(),
  trim: z.boolean().optional(),
});
export const QuantileBinsStepSchema = z.object({
  type: z.literal('quantile_bins'),
  column,
  bins: z.number().int().min(2).max(100),
});
export const RatioStepSchema = z.object({
  type: z.literal('ratio'),
  numerator: column,
  denominator: column,
  name: column,
});

export const PreprocessorStepSchema = z.discriminatedUnion('type', [
  DropColumnsStepSchema,
  FillMissingStepSchema,
  Log1pStepSchema,
  ClipStepSchema,
  DatePartsStepSchema,
  CondenseCategoriesStepSchema,
  TextCleanStepSchema,
  QuantileBinsStepSchema,
  RatioStepSchema,
]);
export type PreprocessorStep = z.infer<typeof PreprocessorStepSchema>;

/** A step as a request gives it: a field its type does not take is a 422, never silently dropped. */
const RequestStepSchema = z.discriminatedUnion('type', [
  DropColumnsStepSchema.strict(),
  FillMissingStepSchema.strict(),
  Log1pStepSchema.strict(),
  ClipStepSchema.strict(),
  DatePartsStepSchema.strict(),
  CondenseCategoriesStepSchema.strict(),
  TextCleanStepSchema.strict(),
  QuantileBinsStepSchema.strict(),
  RatioStepSchema.strict(),
]);

export const PreprocessorSchema = z.object({
  preprocessor_id: IdSchema,
  name: z.string(),
  description: z.string(),
  versions: z.number().int().nonnegative(),
});
export type Preprocessor = z.infer<typeof PreprocessorSchema>;

export const PreprocessorVersionSchema = z.object({
  version_id: IdSchema,
  version_number: z.number().int().positive(),
  steps: z.array(PreprocessorStepSchema),
  dataset_id: IdSchema.nullable(),
  created: TimestampSchema,
});
export type PreprocessorVersion = z.infer<typeof PreprocessorVersionSchema>;

export const CreatePreprocessorRequestSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(''),
  dataset_id: IdSchema,
  steps: z.array(RequestStepSchema),
  ...ignoredFields('team_id'),
});
export type CreatePreprocessorRequest = z.input<typeof CreatePreprocessorRequestSchema>;

export const CreatePreprocessorResponseSchema = z.object({ preprocessor_id: IdSchema, version_id: IdSchema });
export type CreatePreprocessorResponse = z.infer<typeof CreatePreprocessorResponseSchema>;

export const AddPreprocessorVersionRequestSchema = z.strictObject({
  steps: z.array(RequestStepSchema),
  dataset_id: IdSchema.optional(),
  ...ignoredFields('team_id'),
});
export type AddPreprocessorVersionRequest = z.input<typeof AddPreprocessorVersionRequestSchema>;

export const AddPreprocessorVersionResponseSchema = z.object({ version_id: IdSchema });
export type AddPreprocessorVersionResponse = z.infer<typeof AddPreprocessorVersionResponseSchema>;

export const LinkPreprocessorRequestSchema = z
  .strictObject({
    model_version_id: IdSchema.optional(),
    version_id: IdSchema.optional().describe('Alias of model_version_id.'),
    preprocessor_version_id: IdSchema,
    ...ignoredFields('team_id'),
  })
  .refine((b) => b.model_version_id !== undefined || b.version_id !== undefined, {
    message: 'model_version_id is required',
    path: ['model_version_id'],
  });
export type LinkPreprocessorRequest = z.input<typeof LinkPreprocessorRequestSchema>;
