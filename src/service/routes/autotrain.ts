import {
  AutotrainResponseSchema,
  DatasetSummarySchema,
  FeatureEngineeringResponseSchema,
  GenerateFeatureEngineeringRequestSchema,
  GenerateGoalsRequestSchema,
  GenerateLabelsRequestSchema,
  GoalsResponseSchema,
  InsightsRequestSchema,
  InsightsSchema,
  LabelsResponseSchema,
  StartAutotrainRequestSchema,
  SummarizeDatasetFormSchema,
  SummarizeByIdRequestSchema,
  TextGenConfigSchema,
  TrainManualRequestSchema,
  TrainingStatusSchema,
  VisualizationResponseSchema,
  VisualizeRequestSchema,
  type DatasetSummary,
  type TextGenConfig,
} from '../../contract';
import {
  AutotrainInputError,
  autotrainWork,
  completeSummary,
  generateFeatureEngineering,
  generateGoals,
  generateInsights,
  generateLabels,
  visualizeData,
  type Rows,
  type TextGenContext,
} from '../../autotrain';
import type { ServiceContext, Session } from '../http/context';
import { requireDatasetForRules } from '../datasets/datasetSample';
import { datasetRows, loadSummaryRules, registerUpload } from '../datasets/register';
import { receiveUpload, settleUpload } from '../datasets/upload';
import { invalid } from '../base/errors';
import { allowedTeam } from '../http/auth';
import { parseJsonField, parseWith, readJson, sendJson } from '../http/body';
import type { App } from '../http/types';
import { checkTrainableLabel, estimateSeconds, resolveManualRequest } from '../models/executors';
import { oneFit } from '../jobs/throughput';

function teamOf(session: Session, requested: string | null | undefined): string {
  return requested ? allowedTeam(session.identity, requested) : session.teamId;
}

/** The text generation of a request: a base_url this service does not call is a 403 naming the setting that allows it. */
function textGen(ctx: ServiceContext, config: Partial<TextGenConfig> | undefined, signal: AbortSignal): TextGenContext {
  ctx.llmEndpoints.check(config, 'req.textgen_config.base_url');
  return ctx.llmEndpoints.context(config, signal);
}

function parseTextGenField(value: string | undefined): TextGenConfig | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return parseWith(TextGenConfigSchema, parseJsonField(value, 'textgen_config'), ['textgen_config']);
}

/** The dataset rows behind a summary, when the summary names a dataset of the team; the rules over them run on the worker pool. */
async function summaryRows(ctx: ServiceContext, teamId: string, summary: DatasetSummary, signal: AbortSignal): Promise<Rows | undefined> {
  if (!summary.dataset_id) return undefined;
  const dataset = await requireDatasetForRules(ctx, teamId, summary.dataset_id, 'summary.dataset_id', signal);
  return datasetRows(ctx, dataset.path, signal);
}

/** A goal or edit the dataset cannot answer is the caller's input to fix: a 422 naming the field, not a 500. */
async function asInvalid<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AutotrainInputError) throw invalid(`req.${error.field}`, `${error.message}.`);
    throw error;
  }
}

export function mountAutotrainRoutes(app: App, ctx: ServiceContext): void {
  app.post('/v1/autotrain/summarize-dataset', async (c) => {
    const session = c.get('session');
    const upload = await receiveUpload(c.env.incoming, ctx.dataDir, ctx.uploadLimitBytes, { form: SummarizeDatasetFormSchema, multipartOnly: true });
    let teamId: string;
    let config: TextGenConfig | undefined;
    try {
      teamId = teamOf(session, upload.fields.team_id);
      config = parseTextGenField(upload.fields.textgen_config);
      ctx.llmEndpoints.check(config, 'textgen_config.base_url');
    } catch (error) {
      settleUpload(upload, { discard: true });
      throw error;
    }
    const dataset = await registerUpload(ctx, teamId, upload, upload.fields.name);
    const summary = await completeSummary(
      await loadSummaryRules(ctx, upload.path),
      { dataset_id: dataset.dataset_id, name: dataset.name.replace(/\.(csv|parquet)$/i, ''), file_name: upload.fileName ?? dataset.name },
      ctx.llmEndpoints.context(config, c.req.raw.signal),
    );
    return sendJson(c, DatasetSummarySchema, summary);
  });

  app.post('/v1/autotrain/summarize', async (c) => {
    const body = await readJson(c, SummarizeByIdRequestSchema);
    const teamId = teamOf(c.get('session'), body.team_id);
    const dataset = await requireDatasetForRules(ctx, teamId, body.req.dataset_id, 'req.dataset_id', c.req.raw.signal);
    const summary = await completeSummary(
      await loadSummaryRules(ctx, dataset.path),
      { dataset_id: dataset.dataset_id, name: dataset.name.replace(/\.(csv|parquet)$/i, ''), file_name: dataset.name },
      textGen(ctx, body.req.textgen_config, c.req.raw.signal),
    );
    return sendJson(c, DatasetSummarySchema, summary);
  });

  app.post('/v1/autotrain/generate_goals', async (c) => {
    const body = await readJson(c, GenerateGoalsRequestSchema);
    const teamId = teamOf(c.get('session'), body.team_id);
    const frame = await summaryRows(ctx, teamId, body.req.summary, c.req.raw.signal);
    const result = await generateGoals(body.req.summary, body.req.n, textGen(ctx, body.req.textgen_config, c.req.raw.signal), {
      persona: body.req.persona,
      frame,
    });
    return sendJson(c, GoalsResponseSchema, result);
  });

  app.post('/v1/autotrain/generate_labels', async (c) => {
    const body = await readJson(c, GenerateLabelsRequestSchema);
    const teamId = teamOf(c.get('session'), body.team_id);
    const frame = await summaryRows(ctx, teamId, body.req.summary, c.req.raw.signal);
    return sendJson(c, LabelsResponseSchema, await generateLabels(body.req.summary, textGen(ctx, body.req.textgen_config, c.req.raw.signal), frame));
  });

  app.post('/v1/autotrain/generate_feature_engineering', async (c) => {
    const body = await readJson(c, GenerateFeatureEngineeringRequestSchema);
    const teamId = teamOf(c.get('session'), body.team_id);
    const frame = await summaryRows(ctx, teamId, body.req.summary, c.req.raw.signal);
    const result = await generateFeatureEngineering(body.req.summary, body.req.n, textGen(ctx, body.req.textgen_config, c.req.raw.signal), { frame });
    return sendJson(c, FeatureEngineeringResponseSchema, result);
  });

  app.post('/v1/autotrain/visualize', async (c) => {
    const body = await readJson(c, VisualizeRequestSchema);
    const teamId = teamOf(c.get('session'), body.team_id);
    const frame = await summaryRows(ctx, teamId, body.req.summary, c.req.raw.signal);
    const result = await asInvalid(visualizeData(body.req.summary, body.req.goal, body.req.library, textGen(ctx, body.req.textgen_config, c.req.raw.signal), frame, body.req.edit));
    return sendJson(c, VisualizationResponseSchema, result);
  });

  app.post('/v1/autotrain/insights', async (c) => {
    const body = await readJson(c, InsightsRequestSchema);
    const teamId = teamOf(c.get('session'), body.team_id);
    const frame = await summaryRows(ctx, teamId, body.req.summary, c.req.raw.signal);
    const result = await asInvalid(generateInsights(body.req.goal, body.req.summary, frame, textGen(ctx, body.req.textgen_config, c.req.raw.signal)));
    return sendJson(c, InsightsSchema, result);
  });

  app.post('/v1/autotrain/start_autotrain', async (c) => {
    const body = await readJson(c, StartAutotrainRequestSchema);
    const teamId = teamOf(c.get('session'), body.team_id);
    ctx.llmEndpoints.check(body.req.textgen_config, 'req.textgen_config.base_url');
    const summary = body.req.summary;
    if (!summary.dataset_id) throw invalid('req.summary.dataset_id', 'The summary has no dataset_id; summarize the CSV with this service first.');
    const dataset = await requireDatasetForRules(ctx, teamId, summary.dataset_id, 'req.summary.dataset_id', c.req.raw.signal);
    if (body.req.label && !summary.columns.includes(body.req.label)) {
      throw invalid('req.label', `label ${body.req.label} is not a column of the dataset; columns are: ${summary.columns.join(', ')}.`);
    }
    if (body.req.label) {
      await checkTrainableLabel(summary, body.req.label, body.req.model_type, body.req.rare_classes ?? 'error', () => datasetRows(ctx, dataset.path, c.req.raw.signal));
    }
    const estimate = estimateSeconds('autotrain', autotrainWork(summary, body.req.label, body.req.model_type));
    // The caller's text-generation key stays in memory for this run; the stored request never holds it.
    const { api_key: apiKey, ...textgen } = body.req.textgen_config ?? {};
    const stored = { ...body.req, textgen_config: textgen, textgen_key_withheld: Boolean(apiKey), username: c.get('session').identity.username };
    const job = await ctx.jobs.submit(teamId, 'autotrain', stored, estimate, apiKey);
    return sendJson(
      c,
      AutotrainResponseSchema,
      { training_id: job.training_id, status: 'pending', estimated_time: estimate, message: `Autotrain of ${body.req.model_name} queued.` },
      202,
    );
  });

  app.post('/v1/autotrain/train_manual', async (c) => {
    const body = await readJson(c, TrainManualRequestSchema);
    const teamId = teamOf(c.get('session'), body.team_id);
    const dataset = await resolveManualRequest(ctx, teamId, body.req);
    const estimate = estimateSeconds('manual', oneFit(dataset.rows, dataset.columns.length));
    const job = await ctx.jobs.submit(teamId, 'manual', { ...body.req, username: c.get('session').identity.username }, estimate);
    return sendJson(
      c,
      AutotrainResponseSchema,
      { training_id: job.training_id, status: 'pending', estimated_time: estimate, message: `Training of ${body.req.model_name} queued.` },
      202,
    );
  });

  app.get('/v1/autotrain/check_training_status', async (c) => {
    const trainingId = c.req.query('training_id');
    if (!trainingId) throw invalid('training_id', 'training_id is required as a query parameter.');
    const teamId = teamOf(c.get('session'), c.req.query('team_id'));
    return sendJson(c, TrainingStatusSchema, await ctx.jobs.status(teamId, trainingId));
  });

  app.delete('/v1/autotrain/trainings/:training_id', async (c) => {
    const teamId = teamOf(c.get('session'), c.req.query('team_id'));
    return sendJson(c, TrainingStatusSchema, await ctx.jobs.cancel(teamId, c.req.param('training_id')));
  });
}

