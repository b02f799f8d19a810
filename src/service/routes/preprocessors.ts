import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  AddPreprocessorVersionRequestSchema,
  AddPreprocessorVersionResponseSchema,
  CreatePreprocessorRequestSchema,
  CreatePreprocessorResponseSchema,
  LinkPreprocessorRequestSchema,
  PreprocessorSchema,
  PreprocessorVersionSchema,
} from '../../contract';
import type { ServiceContext } from '../http/context';
import { requireDataset } from '../datasets/register';
import { invalid, notFound } from '../base/errors';
import { readJson, sendJson } from '../http/body';
import type { App } from '../http/types';
import { findVersion, linkPreprocessor } from '../store/models';
import {
  findPreprocessorVersion,
  insertPreprocessorVersion,
  listPreprocessors,
  listPreprocessorVersions,
  preprocessorExists,
  publicPreprocessorVersion,
} from '../store/preprocessors';
import { createPreprocessor } from '../models/preprocessing';

export function mountPreprocessorRoutes(app: App, ctx: ServiceContext): void {
  app.post('/v1/preprocessors', async (c) => {
    const { teamId } = c.get('session');
    const body = await readJson(c, CreatePreprocessorRequestSchema);
    const created = await createPreprocessor(ctx, teamId, body);
    return sendJson(c, CreatePreprocessorResponseSchema, created);
  });

  app.get('/v1/preprocessors', async (c) => sendJson(c, z.array(PreprocessorSchema), await listPreprocessors(ctx.store, c.get('session').teamId)));

  app.put('/v1/preprocessors/link-preprocessor', async (c) => {
    const { teamId } = c.get('session');
    const body = await readJson(c, LinkPreprocessorRequestSchema);
    const modelVersionId = (body.model_version_id ?? body.version_id) as string;
    const version = await findVersion(ctx.store, teamId, modelVersionId);
    if (!version) throw notFound('Model version', modelVersionId).withField('model_version_id');
    const pre = await findPreprocessorVersion(ctx.store, teamId, body.preprocessor_version_id);
    if (!pre) throw notFound('Preprocessor version', body.preprocessor_version_id).withField('preprocessor_version_id');
    await linkPreprocessor(ctx.store, version.version_id, pre.preprocessor_id, pre.version_id);
    return c.body(null, 204);
  });

  app.post('/v1/preprocessors/:preprocessor_id/versions', async (c) => {
    const { teamId } = c.get('session');
    const preprocessorId = c.req.param('preprocessor_id');
    if (!(await preprocessorExists(ctx.store, teamId, preprocessorId))) throw notFound('Preprocessor', preprocessorId);
    const body = await readJson(c, AddPreprocessorVersionRequestSchema);
    const datasetId = body.dataset_id ?? (await listPreprocessorVersions(ctx.store, preprocessorId))[0]?.dataset_id ?? null;
    if (!datasetId) throw invalid('dataset_id', `dataset_id is required: preprocessor ${preprocessorId} has no dataset to fit on.`);
    const dataset = await requireDataset(ctx, teamId, datasetId);
    const fitted = await ctx.trainer.fitPreprocessor({ source: { path: dataset.path, label: `Dataset ${datasetId}` }, steps: body.steps });
    const versionId = randomUUID();
    await insertPreprocessorVersion(ctx.store, { version_id: versionId, preprocessor_id: preprocessorId, steps: body.steps, fitted, dataset_id: datasetId });
    return sendJson(c, AddPreprocessorVersionResponseSchema, { version_id: versionId });
  });

  app.get('/v1/preprocessors/:preprocessor_id/versions', async (c) => {
    const { teamId } = c.get('session');
    const preprocessorId = c.req.param('preprocessor_id');
    if (!(await preprocessorExists(ctx.store, teamId, preprocessorId))) throw notFound('Preprocessor', preprocessorId);
    return sendJson(c, z.array(PreprocessorVersionSchema), (await listPreprocessorVersions(ctx.store, preprocessorId)).map(publicPreprocessorVersion));
  });
}

