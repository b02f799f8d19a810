import * as z from 'zod';
import { IdSchema } from './common';

export const TeamSchema = z.object({ team_id: IdSchema, team_name: z.string() });
export type Team = z.infer<typeof TeamSchema>;

export const ConnectInfoSchema = z.object({
  username: z.string(),
  team_id: IdSchema,
  team_name: z.string(),
  teams: z.array(TeamSchema),
  expires: z.string().nullable(),
});
export type ConnectInfo = z.infer<typeof ConnectInfoSchema>;

/** The (local) additions a service supports; clients feature-detect them with GET /v1/health. */
export const LocalFeatureSchema = z.enum([
  'predict',
  'datasets',
  'preprocessors',
  'train_test_dataset',
  'train_model_id',
  'cancel_training',
  'delete_model',
  'model_payload',
  'multiclass',
  'parquet',
  'sources',
  'pushdown',
  'train_jobs',
  'edits',
  'import_version',
  'dataset_file',
  'model_report',
]);
export type LocalFeature = z.infer<typeof LocalFeatureSchema>;

export const HealthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  local: z.boolean(),
  features: z.array(z.string()),
});
export type Health = z.infer<typeof HealthSchema>;
