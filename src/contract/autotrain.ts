import * as z from 'zod';
import { termFields } from './terms';
import { pyString } from '../codeText/python';
import { MAX_COLUMN_NAME, MAX_COLUMNS } from '../engine/model';
import { RareClassesSchema, RequestModelTypeSchema } from './common';
import { PreprocessorStepSchema } from './datasets';

export const AutotrainDtypeSchema = z.enum(['number', 'category', 'string', 'date', 'boolean']);
export type AutotrainDtype = z.infer<typeof AutotrainDtypeSchema>;

export const SampleValueSchema = z.union([z.string(), z.number(), z.boolean()]);
export type SampleValue = z.infer<typeof SampleValueSchema>;

export const FieldPropertiesSchema = z.object({
  dtype: AutotrainDtypeSchema,
  samples: z.array(SampleValueSchema).max(3),
  num_unique_values: z.number().int().nonnegative(),
  semantic_type: z.string(),
  description: z.string(),
  min: z.union([z.number(), z.string()]).optional(),
  max: z.union([z.number(), z.string()]).optional(),
  mean: z.number().optional(),
  std: z.number().optional(),
});
export type FieldProperties = z.infer<typeof FieldPropertiesSchema>;

export const SummaryFieldSchema = z.object({ column: z.string(), properties: FieldPropertiesSchema });
export type SummaryField = z.infer<typeof SummaryFieldSchema>;

export const DatasetSummarySchema = z.object({
  dataset_id: z.string().nullable().default(null),
  name: z.string(),
  file_name: z.string(),
  dataset_description: z.string(),
  rows: z.number().int().nonnegative(),
  columns: z.array(z.string()),
  dtypes: z.record(z.string(), AutotrainDtypeSchema),
  missing_values: z.record(z.string(), z.number().int().nonnegative()),
  field_names: z.array(z.string()),
  fields: z.array(SummaryFieldSchema),
  /**
   * Set when the dataset has more rows than the service reads into memory: the rows of the reproducible sample the
   * types, samples and distinct counts come from (`rows`, the missing values and the numeric statistics are over
   * every row, computed where the rows live).
   */
  sample_rows: z.number().int().positive().optional(),
  /** Set when an LLM enrichment was asked for and could not be used. */
  warnings: z.array(z.string()).optional(),
});
export type DatasetSummary = z.infer<typeof DatasetSummarySchema>;

/** Providers with built-in endpoint presets; any other name is treated as a generic OpenAI-compatible endpoint. */
export const TEXTGEN_PRESETS = ['rules', 'openai', 'azure', 'ollama'] as const;

export const TextGenConfigSchema = z.strictObject({
  provider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  temperature: z.number().min(0).max(2).default(0.2),
  max_tokens: z.number().int().positive().optional(),
  top_p: z.number().gt(0).max(1).optional(),
  n: z.number().int().min(1).max(10).default(1),
  base_url: z.url().optional(),
  api_key: z.string().min(1).optional(),
  api_version: z.string().min(1).optional(),
  timeout_ms: z.number().int().positive().max(600_000).optional(),
});
export type TextGenConfig = z.infer<typeof TextGenConfigSchema>;

/** `POST /v1/autotrain/summarize-dataset` as a multipart form: the file and its text fields. */
export const SummarizeDatasetFormSchema = z.strictObject({
  file: z.string().describe('The CSV or Parquet file'),
  team_id: z.string().optional(),
  textgen_config: z.string().optional().describe('TextGenConfig as a JSON string'),
  name: z.string().optional().describe("the dataset's name (default: the file's)"),
});

export const AnswerSourceSchema = z.enum(['rules', 'llm']);
export type AnswerSource = z.infer<typeof AnswerSourceSchema>;

/** Where a generated answer came from, and why it fell back to rules when it did. */
const sourced = { source: AnswerSourceSchema, warnings: z.array(z.string()) };

export const GoalSchema = z.object({
  index: z.number().int().nonnegative(),
  question: z.string().min(1),
  visualization: z.string().min(1),
  rationale: z.string(),
  columns: z.array(z.string()).default([]),
  target_column: z.string().optional(),
  model_type: RequestModelTypeSchema.optional(),
});
export type Goal = z.infer<typeof GoalSchema>;

export const GoalsResponseSchema = z.object({
  goals: z.array(GoalSchema),
  ...sourced,
});
export type GoalsResponse = z.infer<typeof GoalsResponseSchema>;

/** A class of a multiclass label with fewer than 2 rows among autotrain's training rows (its split: seed 42, 20 % test). */
export const RareLabelClassSchema = z.object({
  class: z.string(),
  rows: z.number().int().nonnegative(),
  training_rows: z.number().int().nonnegative(),
});
export type RareLabelClass = z.infer<typeof RareLabelClassSchema>;

export const LabelSchema = z.object({
  column: z.string(),
  model_type: RequestModelTypeSchema,
  confidence: z.number().min(0).max(1),
  reasoning: z.string(),
  alternatives: z.array(z.string()),
  rare_classes: z
    .array(RareLabelClassSchema)
    .optional()
    .describe('classes too rare to train (known from the rows): training this label needs rare_classes "drop", which leaves out their rows'),
});
export type Label = z.infer<typeof LabelSchema>;

export const LabelsResponseSchema = z.object({
  labels: z.array(LabelSchema),
  ...sourced,
});
export type LabelsResponse = z.infer<typeof LabelsResponseSchema>;

export const ComplexitySchema = z.enum(['low', 'medium', 'high']);

export const RecommendationSchema = z.object({
  index: z.number().int().nonnegative(),
  feature_name: z.string(),
  description: z.string(),
  columns: z.array(z.string()),
  step: PreprocessorStepSchema,
  expected_impact: z.string(),
  complexity: ComplexitySchema,
});
export type Recommendation = z.infer<typeof RecommendationSchema>;

export const FeatureEngineeringResponseSchema = z.object({
  recommendations: z.array(RecommendationSchema),
  ...sourced,
});
export type FeatureEngineeringResponse = z.infer<typeof FeatureEngineeringResponseSchema>;

export const AutotrainResponseSchema = z.object({
  training_id: z.string(),
  status: z.literal('pending'),
  estimated_time: z.number().nonnegative(),
  message: z.string(),
});
export type AutotrainResponse = z.infer<typeof AutotrainResponseSchema>;

export const TrainingStateSchema = z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']);
export type TrainingState = z.infer<typeof TrainingStateSchema>;

export const TrainingStatusSchema = z.object({
  training_id: z.string(),
  status: TrainingStateSchema,
  progress: z.number().min(0).max(100),
  current_step: z.string(),
  model_id: z.string().nullable().optional(),
  version_id: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  elapsed_time: z.number().nonnegative(),
  estimated_remaining: z.number().nonnegative(),
});
export type TrainingStatus = z.infer<typeof TrainingStatusSchema>;

export const VisualizationLibrarySchema = z.enum(['plotly', 'matplotlib', 'seaborn']);
export type VisualizationLibrary = z.infer<typeof VisualizationLibrarySchema>;

export const ChartKindSchema = z.enum(['histogram', 'bar', 'scatter', 'line', 'box', 'heatmap']);
export type ChartKind = z.infer<typeof ChartKindSchema>;

const chartBase = { title: z.string(), columns: z.array(z.string()) };

/**
 * Preview spec the webview draws natively. Data arrays are empty when only the summary was available
 * (no rows to compute from).
 */
export const ChartSpecSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('histogram'), ...chartBase, x: z.string(),
    bins: z.array(z.object({ lower: z.number(), upper: z.number(), count: z.number().int().nonnegative() })),
  }),
  z.object({
    kind: z.literal('bar'), ...chartBase, x: z.string(), y: z.string().nullable(),
    /** `share`: each level's percentage of the rows with a value (a class balance). */
    aggregate: z.enum(['count', 'mean', 'share']),
    bars: z.array(z.object({ label: z.string(), value: z.number() })),
  }),
  z.object({
    kind: z.literal('scatter'), ...chartBase, x: z.string(), y: z.string(),
    points: z.array(z.object({ x: z.number(), y: z.number() })),
  }),
  z.object({
    kind: z.literal('line'), ...chartBase, x: z.string(), y: z.string(),
    points: z.array(z.object({ x: z.string(), y: z.number() })),
  }),
  z.object({
    kind: z.literal('box'), ...chartBase, x: z.string().nullable(), y: z.string(),
    groups: z.array(z.object({
      label: z.string(), n: z.number().int().nonnegative(),
      min: z.number(), q1: z.number(), median: z.number(), q3: z.number(), max: z.number(),
    })),
  }),
  z.object({
    kind: z.literal('heatmap'), ...chartBase,
    value: z.enum(['correlation', 'count']),
    x_labels: z.array(z.string()),
    y_labels: z.array(z.string()),
    /** One row per y label, one entry per x label; null where a correlation is undefined. */
    matrix: z.array(z.array(z.number().nullable())),
  }),
]);
export type ChartSpec = z.infer<typeof ChartSpecSchema>;

export const VisualizationResponseSchema = z.object({
  code: z.string(),
  language: z.literal('python'),
  library: VisualizationLibrarySchema,
  description: z.string(),
  dependencies: z.array(z.string()),
  chart: ChartSpecSchema,
  source: AnswerSourceSchema,
  warnings: z.array(z.string()).default([]),
});
export type VisualizationResponse = z.infer<typeof VisualizationResponseSchema>;

export const EvidenceSchema = z.record(z.string(), z.union([z.number(), z.string(), z.null()]));
export type Evidence = z.infer<typeof EvidenceSchema>;

export const InsightSchema = z.object({
  title: z.string(),
  detail: z.string(),
  columns: z.array(z.string()),
  evidence: EvidenceSchema,
});
export type Insight = z.infer<typeof InsightSchema>;

export const InsightsSchema = z.object({
  goal: GoalSchema,
  insights: z.array(InsightSchema),
  source: AnswerSourceSchema,
  warnings: z.array(z.string()).default([]),
});
export type Insights = z.infer<typeof InsightsSchema>;

/** A goal may be given as a Goal or as free text (the question). */
export const GoalInputSchema = z.union([GoalSchema, z.string().min(1)]);
export type GoalInput = z.infer<typeof GoalInputSchema>;

const textgen = TextGenConfigSchema.default({ temperature: 0.2, n: 1 });

/**
 * Free text a request gives as a question or a persona: a sentence, not a document, since it is searched for every
 * column's name and written into the answer (a persona into every goal's rationale).
 */
const MAX_REQUEST_TEXT = 2_000;
const requestText = z.string().min(1).max(MAX_REQUEST_TEXT);

/** A goal a request gives: one a response gave, or free text (the question). */
const GoalRequestSchema = z.union([GoalSchema.extend({ question: requestText, visualization: requestText }), requestText]);

/**
 * A summary a request passes back: a dataset's, so of at most MAX_COLUMNS columns (the rules look at pairs of them)
 * named in at most MAX_COLUMN_NAME characters (the answers repeat names).
 */
const SummaryInputSchema = DatasetSummarySchema.superRefine((summary, ctx) => {
  for (const key of ['columns', 'field_names', 'fields'] as const) {
    if (summary[key].length > MAX_COLUMNS) {
      ctx.addIssue({ code: 'custom', path: [key], message: `Has ${summary[key].length} entries, more than the ${MAX_COLUMNS} columns a dataset may have` });
    }
  }
  const names: [PropertyKey[], string][] = [
    ...summary.columns.map((name, i): [PropertyKey[], string] => [['columns', i], name]),
    ...summary.field_names.map((name, i): [PropertyKey[], string] => [['field_names', i], name]),
    ...summary.fields.map((field, i): [PropertyKey[], string] => [['fields', i, 'column'], field.column]),
  ];
  const long = names.find(([, name]) => name.length > MAX_COLUMN_NAME);
  if (long) ctx.addIssue({ code: 'custom', path: long[0], message: `Is ${long[1].length} characters long, more than the ${MAX_COLUMN_NAME} a column name may have` });
});

export const SummarizeByIdBodySchema = z.strictObject({
  dataset_id: z.string().min(1),
  textgen_config: textgen,
});
export const GenerateGoalsBodySchema = z.strictObject({
  summary: SummaryInputSchema,
  n: z.number().int().min(1).max(30).default(5),
  persona: z.string().max(MAX_REQUEST_TEXT).optional(),
  textgen_config: textgen,
});
export const GenerateLabelsBodySchema = z.strictObject({
  summary: SummaryInputSchema,
  textgen_config: textgen,
});
export const GenerateFeatureEngineeringBodySchema = z.strictObject({
  summary: SummaryInputSchema,
  n: z.number().int().min(1).max(30).default(5),
  textgen_config: textgen,
});
export const StartAutotrainBodySchema = z.strictObject({
  model_name: z.string().min(1),
  model_description: z.string().default(''),
  summary: SummaryInputSchema,
  textgen_config: textgen,
  label: z.string().min(1).optional(),
  model_type: RequestModelTypeSchema.optional(),
  rare_classes: RareClassesSchema.optional().describe(
    'default error when label is given; without a label, autotrain trains the top label and leaves out the rows of its classes too rare to train (drop) unless this says error',
  ),
});
export const TrainManualBodySchema = z.strictObject({
  label: z.string().min(1),
  model_name: z.string().min(1),
  model_description: z.string().default(''),
  preprocessor_id: z.string().min(1),
  version_id: z.string().min(1),
  drop_columns: z.array(z.string()).optional(),
  model_type: RequestModelTypeSchema.optional(),
  rare_classes: RareClassesSchema.default('error'),
  ...termFields,
});
/** "Fix this chart": the code on screen and what to change ("log scale", "only 2020", "colour by species"). */
export const ChartEditSchema = z.strictObject({
  code: z.string().min(1).max(200_000),
  instruction: z.string().trim().min(1).max(500),
});
export type ChartEdit = z.infer<typeof ChartEditSchema>;

export const VisualizeBodySchema = z.strictObject({
  summary: SummaryInputSchema,
  goal: GoalRequestSchema,
  library: VisualizationLibrarySchema.default('plotly'),
  textgen_config: textgen,
  /** When set, the answer is this code with the edit applied (rules for common edits, else the language model). */
  edit: ChartEditSchema.optional(),
});
export const InsightsBodySchema = z.strictObject({
  goal: GoalRequestSchema,
  summary: SummaryInputSchema,
  textgen_config: textgen,
});

export type SummarizeByIdBody = z.infer<typeof SummarizeByIdBodySchema>;
export type GenerateGoalsBody = z.infer<typeof GenerateGoalsBodySchema>;
export type GenerateLabelsBody = z.infer<typeof GenerateLabelsBodySchema>;
export type GenerateFeatureEngineeringBody = z.infer<typeof GenerateFeatureEngineeringBodySchema>;
export type StartAutotrainBody = z.infer<typeof StartAutotrainBodySchema>;
export type TrainManualBody = z.infer<typeof TrainManualBodySchema>;
export type VisualizeBody = z.infer<typeof VisualizeBodySchema>;
export type InsightsBody = z.infer<typeof InsightsBodySchema>;

/**
 * Autotrain JSON bodies travel as `{team_id, req}`, as the hosted service expects. `summary` and `goal` are what a
 * response gave, passed back as they are, so their fields are not checked for unknown ones.
 */
function teamEnvelope<T extends z.ZodType>(req: T) {
  return z.strictObject({ team_id: z.string().nullable().optional(), req });
}

export const SummarizeByIdRequestSchema = teamEnvelope(SummarizeByIdBodySchema);
export const GenerateGoalsRequestSchema = teamEnvelope(GenerateGoalsBodySchema);
export const GenerateLabelsRequestSchema = teamEnvelope(GenerateLabelsBodySchema);
export const GenerateFeatureEngineeringRequestSchema = teamEnvelope(GenerateFeatureEngineeringBodySchema);
export const StartAutotrainRequestSchema = teamEnvelope(StartAutotrainBodySchema);
export const TrainManualRequestSchema = teamEnvelope(TrainManualBodySchema);
export const VisualizeRequestSchema = teamEnvelope(VisualizeBodySchema);
export const InsightsRequestSchema = teamEnvelope(InsightsBodySchema);

export type SummarizeByIdRequest = z.infer<typeof SummarizeByIdRequestSchema>;
export type GenerateGoalsRequest = z.infer<typeof GenerateGoalsRequestSchema>;
export type GenerateLabelsRequest = z.infer<typeof GenerateLabelsRequestSchema>;
export type GenerateFeatureEngineeringRequest = z.infer<typeof GenerateFeatureEngineeringRequestSchema>;
export type StartAutotrainRequest = z.infer<typeof StartAutotrainRequestSchema>;
export type TrainManualRequest = z.infer<typeof TrainManualRequestSchema>;
export type VisualizeRequest = z.infer<typeof VisualizeRequestSchema>;
export type InsightsRequest = z.infer<typeof InsightsRequestSchema>;

/**
 * Generated visualization code reads the CSV from one line `DATA_PATH = "<file name>"`; a client that knows where the
 * file is replaces that line's value with `withDataPath`.
 */
export const DATA_PATH_LINE = /^DATA_PATH = ".*"$/m;

export function withDataPath(code: string, path: string): string {
  return code.replace(DATA_PATH_LINE, () => `DATA_PATH = ${pyString(path)}`);
}
