import * as z from 'zod';
import {
  AddPreprocessorVersionResponseSchema,
  CreatePreprocessorResponseSchema,
  PreprocessorSchema,
  PreprocessorVersionSchema,
  type AddPreprocessorVersionRequest,
  type AddPreprocessorVersionResponse,
  type CreatePreprocessorRequest,
  type CreatePreprocessorResponse,
  type Preprocessor,
  type PreprocessorVersion,
} from '../contract/datasets';
import { segment, type CallOptions, type Transport } from './transport';

/** The preprocessors group (a local-service addition: feature `preprocessors`). */
export class PreprocessorsApi {
  constructor(private readonly transport: Transport) {}

  /** Creates a preprocessor and its first version, fitted on `dataset_id`. */
  async create(params: CreatePreprocessorRequest, options?: CallOptions): Promise<CreatePreprocessorResponse> {
    return this.transport.postJson('preprocessors', params, CreatePreprocessorResponseSchema, options);
  }

  async list(options?: CallOptions): Promise<Preprocessor[]> {
    return this.transport.get('preprocessors', z.array(PreprocessorSchema), options);
  }

  async addVersion(preprocessor_id: string, params: AddPreprocessorVersionRequest, options?: CallOptions): Promise<AddPreprocessorVersionResponse> {
    return this.transport.postJson(`preprocessors/${segment(preprocessor_id)}/versions`, params, AddPreprocessorVersionResponseSchema, options);
  }

  async listVersions(preprocessor_id: string, options?: CallOptions): Promise<PreprocessorVersion[]> {
    return this.transport.get(`preprocessors/${segment(preprocessor_id)}/versions`, z.array(PreprocessorVersionSchema), options);
  }
}
