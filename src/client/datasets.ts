import { basename } from 'node:path';
import * as z from 'zod';
import { DatasetSchema, PublicDatasetSchema, type Dataset, type PublicDataset, type RegisterSourceDatasetRequest } from '../contract/datasets';
import { exactlyOneSource } from './dataSource';
import { dataFileBody, PARQUET_TYPE } from './upload';
import type { CallOptions, DownloadedBody, RequestBody, Transport } from './transport';

/**
 * A CSV or Parquet file to upload: `file_path` is streamed from disk (Parquet when its bytes are, whatever its name),
 * `csv_content` and `parquet_content` are sent as they are.
 */
export interface UploadDatasetParams {
  file_path?: string;
  csv_content?: string;
  parquet_content?: Uint8Array;
  /** A dataset's file as `download` gives it (another service's, say), streamed on as it arrives. */
  file?: DownloadedBody;
  /** Dataset name; the file name by default. */
  name?: string;
}

/** The datasets group (a local-service addition: feature `datasets`). */
export class DatasetsApi {
  constructor(private readonly transport: Transport) {}

  /** Uploads a CSV (`text/csv`) or Parquet file (`application/vnd.apache.parquet`); a file is streamed, never read into memory whole. */
  async upload(params: UploadDatasetParams, options?: CallOptions): Promise<Dataset> {
    const source = exactlyOneSource(params, ['file_path', 'csv_content', 'parquet_content', 'file'], 'datasets.upload');
    const body: RequestBody =
      source === 'file_path'
        ? await dataFileBody(params.file_path as string)
        : source === 'parquet_content'
          ? { kind: 'stream', contentType: PARQUET_TYPE, length: (params.parquet_content as Uint8Array).length, content: params.parquet_content as Uint8Array }
          : source === 'file'
            ? fileBody(params.file as DownloadedBody)
            : { kind: 'stream', contentType: 'text/csv', length: Buffer.byteLength(params.csv_content as string), content: Buffer.from(params.csv_content as string) };
    const name = params.name ?? (params.file_path !== undefined ? basename(params.file_path) : undefined);
    return this.transport.send({
      method: 'POST',
      path: 'datasets',
      query: { name },
      body,
      schema: DatasetSchema,
      signal: options?.signal,
    });
  }

  /**
   * Registers a table or a read-only query of a named connection as a dataset whose rows stay in the database
   * (feature `sources`); the service counts its rows and checks its columns now and reads them at first use. On the
   * local service, `{source: {file}}` registers a file of its machine, read where it lies (a team server answers 403).
   */
  async register(params: RegisterSourceDatasetRequest, options?: CallOptions): Promise<Dataset> {
    return this.transport.postJson('datasets', params, DatasetSchema, options);
  }

  /** The file of an uploaded dataset as it was uploaded, CSV or Parquet, as a stream (feature `dataset_file`). */
  async download(dataset_id: string, options?: CallOptions): Promise<DownloadedBody> {
    return this.transport.download(`datasets/${encodeURIComponent(dataset_id)}/file`, options);
  }

  /** Deletes a dataset (a local-service addition). */
  async delete(dataset_id: string, options?: CallOptions): Promise<void> {
    return this.transport.send({ method: 'DELETE', path: `datasets/${encodeURIComponent(dataset_id)}`, schema: undefined, signal: options?.signal });
  }

  async list(options?: CallOptions): Promise<Dataset[]> {
    return this.transport.get('datasets', z.array(DatasetSchema), options);
  }

  /** The sample datasets the service ships with. */
  async listPublic(options?: CallOptions): Promise<PublicDataset[]> {
    return this.transport.get('datasets/public', z.array(PublicDatasetSchema), options);
  }
}

/** A downloaded file sent on as an upload body: Parquet when the service said so (it reads the format from the bytes anyway). */
function fileBody(file: DownloadedBody): RequestBody {
  return { kind: 'stream', contentType: file.contentType.startsWith(PARQUET_TYPE) ? PARQUET_TYPE : 'text/csv', length: file.length, content: file.content };
}
