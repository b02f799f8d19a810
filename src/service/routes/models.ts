import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  AutotrainResponseSchema,
  AddVersionRequestSchema,
  AddVersionResponseSchema,
  CreateModelRequestSchema,
  CreateModelResponseSchema,
  EvaluationSchema,
  FeatureInfoSchema,
  ImportedVersionSchema,
  ImportModelRequestSchema,
  ImportVersionRequestSchema,
  ModelInfoSchema,
  ModelVersionSchema,
  PartitionListSchema,
  PredictRequestSchema,
  PredictionsTableSchema,
  PreviewEditsRequestSchema,
  PreviewEditsResultSchema,
  ModelProfileSchema,
  ModelPayloadSchema,
  RefitRequestSchema,
  RefitResultSchema,
  TrainRequestSchema,
  TrainResultSchema,
} from '../../contract';
import { modelReportHtml, modelReportMarkdown, REPORT_CONTENT_SECURITY_POLICY } from '../../report';
import type { ServiceContext } from '../http/context';
import { invalid, notFound } from '../base/errors';
import { allowedTeam } from '../http/auth';
import { readJson, requestWarnings, sendJson } from '../http/body';
import type { App } from '../http/types';
import { previewEdits } from '../models/editing';
import { checkTrainTarget, predictWithVersion, refitVersion, requireVersion, trainModel } from '../models/modeling';
import { estimateSeconds } from '../models/executors';
import { oneFit } from '../jobs/throughput';
import { findDataset } from '../store/datasets';
import { predictIntoTable } from '../pushdown/predict';
import { deleteModel, findModel, findPartition, latestVersion, listModels, listPartitions, listVersions, publicVersion } from '../store/models';
import { storeUploadedVersion } from '../models/uploads';
import { importVersion } from '../models/versionImport';
import { partitionEvaluation, reportInput, versionFeatureInfo, versionPayload, versionProfile } from '../models/versionViews';

/** The formats of a version's report: `?format=html` (the default) or `markdown`. */
function reportFormat(format: string | undefined): 'html' | 'markdown' {
  if (format === undefined || format === 'html' || format === 'markdown') return format ?? 'html';
  throw invalid('format', `format is ${JSON.stringify(format)}, which is not a report format.`, 'Leave it out for HTML, or use format=markdown.');
}

export function mountModelRoutes(app: App, ctx: ServiceContext): void {
  const requireModel = async (teamId: string, modelId: string) => {
    const model = await findModel(ctx.store, teamId, modelId);
    if (!model) throw notFound('Model', modelId);
    return model;
  };

  app.post('/v1/models/create', async (c) => {
    const session = c.get('session');
    const body = await readJson(c, CreateModelRequestSchema);
    const modelId = randomUUID();
    const partitionOn = body.partition_on ?? null;
    const versionId = await storeUploadedVersion(
      ctx,
      session,
      {
        model: {
          model_id: modelId,
          name: body.name,
          description: body.description,
          model_type: body.type,
          target_name: body.target_name,
          algorithm: body.algorithm,
          partition_on: partitionOn,
          created_by: session.identity.username,
        },
        modelId,
        type: body.type,
        targetName: body.target_name,
        partitionOn,
      },
      body.partitions,
    );
    return sendJson(c, CreateModelResponseSchema, { model_id: modelId, version_id: versionId });
  });

  app.post('/v1/models/add-version', async (c) => {
    const session = c.get('session');
    const body = await readJson(c, AddVersionRequestSchema);
    const model = await findModel(ctx.store, session.teamId, body.model_id);
    if (!model) throw notFound('Model', body.model_id).withField('model_id');
    const versionId = await storeUploadedVersion(
      ctx,
      session,
      { modelId: model.model_id, type: model.model_type, targetName: model.target_name, partitionOn: body.partition_on ?? model.partition_on },
      body.partitions,
    );
    return sendJson(c, AddVersionResponseSchema, { version_id: versionId });
  });

  app.post('/v1/models/import', async (c) => {
    const session = c.get('session');
    const { model_name, model_description, ...version } = await readJson(c, ImportModelRequestSchema);
    const created = { model_id: randomUUID(), name: model_name, description: model_description, created_by: session.identity.username };
    return sendJson(c, ImportedVersionSchema, await importVersion(ctx, session, { created }, version));
  });

  app.post('/v1/models/:model_id/versions/import', async (c) => {
    const session = c.get('session');
    const existing = await requireModel(session.teamId, c.req.param('model_id'));
    const body = await readJson(c, ImportVersionRequestSchema);
    return sendJson(c, ImportedVersionSchema, await importVersion(ctx, session, { existing }, body));
  });

  app.post('/v1/models/train', async (c) => {
    const body = await readJson(c, TrainRequestSchema);
    return sendJson(c, TrainResultSchema, await trainModel(ctx, c.get('session'), body, { signal: c.req.raw.signal }));
  });

  app.post('/v1/models/train/jobs', async (c) => {
    const body = await readJson(c, TrainRequestSchema);
    const session = c.get('session');
    if (body.csv_content !== undefined) {
      throw invalid('csv_content', 'A training job reads a dataset: csv_content is for POST /v1/models/train, which answers with the model.', 'Upload the CSV with POST /v1/datasets and send its dataset_id.');
    }
    await checkTrainTarget(ctx, session.teamId, body);
    const dataset = body.dataset_id ? await findDataset(ctx.store, session.teamId, body.dataset_id) : null;
    if (body.dataset_id && !dataset) throw notFound('Dataset', body.dataset_id).withField('dataset_id');
    const estimate = estimateSeconds('train', oneFit(dataset?.rows ?? 0, dataset?.columns.length ?? 0));
    const job = await ctx.jobs.submit(session.teamId, 'train', { ...body, username: session.identity.username }, estimate);
    const name = body.model_name ?? body.model_id;
    return sendJson(c, AutotrainResponseSchema, { training_id: job.training_id, status: 'pending', estimated_time: estimate, message: `Training of ${name} queued.` }, 202);
  });

  app.get('/v1/models/teams/:team_id', async (c) => {
    const teamId = allowedTeam(c.get('session').identity, c.req.param('team_id'));
    return sendJson(c, z.array(ModelInfoSchema), await listModels(ctx.store, teamId));
  });

  app.get('/v1/models/versions/:model_id', async (c) => {
    const model = await requireModel(c.get('session').teamId, c.req.param('model_id'));
    return sendJson(c, z.array(ModelVersionSchema), (await listVersions(ctx.store, model.model_id)).map(publicVersion));
  });

  app.get('/v1/models/partitions/:version_id', async (c) => {
    const { teamId } = c.get('session');
    let versionId = c.req.param('version_id');
    if (versionId === 'latest') {
      const modelId = c.req.query('model_id');
      if (!modelId) throw invalid('model_id', 'model_id is required (as a query parameter) when version_id is "latest".');
      const model = await requireModel(teamId, modelId);
      const latest = await latestVersion(ctx.store, teamId, model.model_id);
      if (!latest) throw notFound('Version of model', model.model_id);
      versionId = latest.version_id;
    }
    const version = await requireVersion(ctx, teamId, versionId);
    return sendJson(c, PartitionListSchema, { version_id: version.version_id, partitions: await listPartitions(ctx.store, version.version_id) });
  });

  app.get('/v1/models/profile/:version_id', async (c) => {
    const version = await requireVersion(ctx, c.get('session').teamId, c.req.param('version_id'));
    return sendJson(c, ModelProfileSchema, versionProfile(version));
  });

  app.get('/v1/models/versions/:version_id/payload', async (c) => {
    const version = await requireVersion(ctx, c.get('session').teamId, c.req.param('version_id'));
    return sendJson(c, ModelPayloadSchema, versionPayload(version));
  });

  app.get('/v1/models/versions/:version_id/report', async (c) => {
    const format = reportFormat(c.req.query('format'));
    const input = await reportInput(ctx, c.get('session').teamId, c.req.param('version_id'));
    const body = format === 'markdown' ? modelReportMarkdown(input) : modelReportHtml(input);
    return c.body(body, 200, {
      'content-type': `${format === 'markdown' ? 'text/markdown' : 'text/html'}; charset=utf-8`,
      'content-security-policy': REPORT_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
    });
  });

  app.get('/v1/models/evaluation/:partition_id', async (c) => {
    const partitionId = c.req.param('partition_id');
    const partition = await findPartition(ctx.store, c.get('session').teamId, partitionId);
    if (!partition) throw notFound('Partition', partitionId);
    const version = await requireVersion(ctx, c.get('session').teamId, partition.version_id);
    const evaluation = partitionEvaluation(partition, version.parameters);
    if (!evaluation) throw notFound('Evaluation of partition', partitionId);
    return sendJson(c, EvaluationSchema, evaluation);
  });

  app.get('/v1/models/feature-info/:version_id', async (c) => {
    const version = await requireVersion(ctx, c.get('session').teamId, c.req.param('version_id'));
    return sendJson(c, FeatureInfoSchema, versionFeatureInfo(version));
  });

  app.post('/v1/models/versions/:version_id/refit', async (c) => {
    const body = await readJson(c, RefitRequestSchema);
    return sendJson(c, RefitResultSchema, await refitVersion(ctx, c.get('session'), c.req.param('version_id'), body));
  });

  app.post('/v1/models/versions/:version_id/preview-edits', async (c) => {
    const body = await readJson(c, PreviewEditsRequestSchema);
    const preview = await previewEdits(ctx, c.get('session').teamId, c.req.param('version_id'), body, c.req.raw.signal);
    return sendJson(c, PreviewEditsResultSchema, preview);
  });

  app.post('/v1/models/versions/:version_id/predict', async (c) => {
    const body = await readJson(c, PredictRequestSchema);
    const { output_table } = body;
    if (output_table !== undefined) {
      const version = await requireVersion(ctx, c.get('session').teamId, c.req.param('version_id'));
      return sendJson(c, PredictionsTableSchema, await predictIntoTable(ctx, c.get('session').teamId, version, { ...body, output_table }));
    }
    // Written by the worker (tests check it against PredictionsSchema): checking or serializing millions of numbers
    // here would hold up every other request.
    const chunks = await predictWithVersion(ctx, c.get('session').teamId, c.req.param('version_id'), body, requestWarnings(c));
    // Sent chunk by chunk as the worker threads wrote them, never joined into one copy of tens of megabytes.
    const length = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    let next = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => (next < chunks.length ? controller.enqueue(chunks[next++]) : controller.close()),
    });
    return c.body(stream, 200, { 'content-type': 'application/json', 'content-length': String(length) });
  });

  app.get('/v1/models/:model_id', async (c) => sendJson(c, ModelInfoSchema, await requireModel(c.get('session').teamId, c.req.param('model_id'))));

  app.delete('/v1/models/:model_id', async (c) => {
    const { teamId } = c.get('session');
    const modelId = c.req.param('model_id');
    if (!(await deleteModel(ctx.store, teamId, modelId))) throw notFound('Model', modelId);
    return c.body(null, 204);
  });
}
