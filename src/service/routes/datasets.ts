import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { DatasetSchema, PublicDatasetSchema, RegisterSourceDatasetRequestSchema, UploadDatasetFormSchema } from '../../contract';
import type { ServiceContext } from '../http/context';
import { ensureLocal, removeEverywhere } from '../datasetFiles/fileCache';
import { registerUpload } from '../datasets/register';
import { findCurrentDataset, registerFileDataset } from '../datasets/fileDataset';
import { registerSourceDataset } from '../datasets/sourceDataset';
import { receiveUpload } from '../datasets/upload';
import { readJson, sendJson } from '../http/body';
import type { App } from '../http/types';
import { conflict, notFound } from '../base/errors';
import { datasetPath } from '../datasetFiles/files';
import { isParquetFile } from '../datasetFiles/parquetFile';
import { deleteDataset, listDatasets } from '../store/datasets';

export function mountDatasetRoutes(app: App, ctx: ServiceContext): void {
  app.post('/v1/datasets', async (c) => {
    const { teamId } = c.get('session');
    if (/^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
      const body = await readJson(c, RegisterSourceDatasetRequestSchema);
      const { source } = body;
      if ('file' in source) {
        const dataset = await registerFileDataset(ctx, teamId, source.file, body.name);
        ctx.logger.info(`dataset ${dataset.dataset_id} registered from the file ${source.file} where it lies (${dataset.rows} rows)`);
        return sendJson(c, DatasetSchema, dataset);
      }
      const dataset = await registerSourceDataset(ctx, teamId, { ...body, source }, c.req.raw.signal);
      ctx.logger.info(`dataset ${dataset.dataset_id} registered from connection ${dataset.source?.connection} (${dataset.rows} rows)`);
      return sendJson(c, DatasetSchema, dataset);
    }
    const upload = await receiveUpload(c.env.incoming, ctx.dataDir, ctx.uploadLimitBytes, { form: UploadDatasetFormSchema });
    const dataset = await registerUpload(ctx, teamId, upload, upload.fields.name ?? c.req.query('name'));
    ctx.logger.info(`dataset ${dataset.dataset_id} uploaded (${dataset.rows} rows, ${dataset.size_bytes} bytes)`);
    return sendJson(c, DatasetSchema, dataset);
  });

  app.get('/v1/datasets', async (c) => sendJson(c, z.array(DatasetSchema), await listDatasets(ctx.store, c.get('session').teamId)));

  app.delete('/v1/datasets/:dataset_id', async (c) => {
    const datasetId = c.req.param('dataset_id');
    if (!(await deleteDataset(ctx.store, c.get('session').teamId, datasetId))) throw notFound('Dataset', datasetId);
    await removeEverywhere(ctx.store.files, datasetPath(ctx.dataDir, datasetId));
    return c.body(null, 204);
  });

  app.get('/v1/datasets/:dataset_id/file', async (c) => {
    const datasetId = c.req.param('dataset_id');
    const dataset = await findCurrentDataset(ctx, c.get('session').teamId, datasetId, 'dataset_id');
    if (!dataset) throw notFound('Dataset', datasetId);
    if (dataset.source) {
      throw conflict(
        `Dataset ${datasetId} has no file: its rows stay in the database of connection ${dataset.source.connection}.`,
        'Register the same table or query on the other service (POST /v1/datasets with its source).',
      );
    }
    const path = dataset.file?.path ?? datasetPath(ctx.dataDir, datasetId);
    await ensureLocal(ctx.store.files, path);
    const { size } = await stat(path);
    const stream = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
    return c.body(stream, 200, { 'content-type': isParquetFile(path) ? 'application/vnd.apache.parquet' : 'text/csv', 'content-length': String(size) });
  });

  app.get('/v1/datasets/public', async (c) => {
    const list = await ctx.publicDatasets.list();
    return sendJson(
      c,
      z.array(PublicDatasetSchema),
      list.map(({ path: _path, ...rest }) => rest),
    );
  });
}

