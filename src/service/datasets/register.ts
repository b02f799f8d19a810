import { rmSync } from 'node:fs';
import type { Dataset } from '../../contract';
import type { ServiceContext } from '../context';
import { notFound } from '../errors';
import { findDataset, insertDataset } from '../store/datasets';
import { datasetPath, inspectCsv } from './files';
import type { ReceivedUpload } from './upload';

/** Records an uploaded CSV as a dataset of the team (422 and nothing kept when it is not a readable CSV). */
export async function registerUpload(ctx: ServiceContext, teamId: string, upload: ReceivedUpload, name: string | undefined): Promise<Dataset> {
  const label = name || upload.fileName || 'The upload';
  try {
    const shape = await inspectCsv(upload.path, label);
    const dataset: Dataset = {
      dataset_id: upload.datasetId,
      name: (name || upload.fileName || `dataset-${new Date().toISOString().slice(0, 19)}`).trim(),
      rows: shape.rows,
      columns: shape.columns,
      size_bytes: upload.size,
      created: new Date().toISOString(),
    };
    insertDataset(ctx.store, teamId, dataset);
    return dataset;
  } catch (error) {
    rmSync(upload.path, { force: true });
    throw error;
  }
}

/** The team's dataset and its file path; 404 for an unknown id or another team's dataset. */
export function requireDataset(ctx: ServiceContext, teamId: string, datasetId: string, field = 'dataset_id'): Dataset & { path: string } {
  const dataset = findDataset(ctx.store, teamId, datasetId);
  if (!dataset) throw notFound('Dataset', datasetId).withField(field);
  return { ...dataset, path: datasetPath(ctx.dataDir, dataset.dataset_id) };
}
