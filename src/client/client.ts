import * as z from 'zod';
import {
  ConnectInfoSchema,
  HealthSchema,
  TeamSchema,
  type ConnectInfo,
  type Health,
  type Team,
} from '../contract/system';
import { AutotrainApi } from './autotrain';
import { ConnectionsApi } from './connections';
import { DatasetsApi } from './datasets';
import { ModelsApi } from './models';
import { PreprocessorsApi } from './preprocessors';
import { Transport, type CallOptions, type XModelsClientOptions } from './transport';

export interface ConnectOptions extends CallOptions {
  /** Asks the service again instead of returning the cached answer. */
  refresh?: boolean;
}

/**
 * Typed client of the XModels /v1 API, for the local service and the hosted one. Methods are the contract's operation
 * names in camelCase; parameters and results keep the wire's snake_case names. Every method takes a last optional
 * `{signal}` and fails with `XModelsApiError`.
 */
export class XModelsClient {
  readonly models: ModelsApi;
  readonly autotrain: AutotrainApi;
  readonly datasets: DatasetsApi;
  readonly preprocessors: PreprocessorsApi;
  readonly connections: ConnectionsApi;
  private readonly transport: Transport;
  private connection: Promise<ConnectInfo> | undefined;

  constructor(options: XModelsClientOptions) {
    this.transport = new Transport(options);
    this.datasets = new DatasetsApi(this.transport);
    this.models = new ModelsApi(this.transport, this.datasets, (o) => this.sessionTeam(o));
    this.autotrain = new AutotrainApi(this.transport);
    this.preprocessors = new PreprocessorsApi(this.transport);
    this.connections = new ConnectionsApi(this.transport);
  }

  /** Whether a local file is registered where it lies rather than uploaded (XModelsClientOptions.filesInPlace). */
  get filesInPlace(): boolean {
    return this.transport.filesInPlace;
  }

  /** The team chosen for every call, or undefined for the key's default team. */
  get teamId(): string | undefined {
    return this.transport.teamId;
  }

  /** Chooses the team sent with every later call (undefined: the key's default team). */
  useTeam(team_id: string | undefined): void {
    if ((team_id || undefined) === this.transport.teamId) return;
    this.transport.teamId = team_id || undefined;
    this.connection = undefined;
  }

  /** Who the key belongs to and its session team; cached after the first success. */
  async connect(options?: ConnectOptions): Promise<ConnectInfo> {
    if (!this.connection || options?.refresh) {
      const path = this.transport.pathPrefix.endsWith('/client') ? 'connect' : 'client/connect';
      const pending = this.transport.get(path, ConnectInfoSchema, options);
      this.connection = pending;
      pending.catch(() => {
        if (this.connection === pending) this.connection = undefined;
      });
    }
    return this.connection;
  }

  /** Service status and the local additions it supports (no key needed). */
  async health(options?: CallOptions): Promise<Health> {
    return this.transport.send({ method: 'GET', path: 'health', schema: HealthSchema, signal: options?.signal, anonymous: true });
  }

  /** Teams the key may use. */
  async teams(options?: CallOptions): Promise<Team[]> {
    return this.transport.get('teams', z.array(TeamSchema), options);
  }

  /** Closes the client's keep-alive connections. */
  async close(): Promise<void> {
    return this.transport.close();
  }

  private async sessionTeam(options?: CallOptions): Promise<string> {
    return this.transport.teamId ?? (await this.connect(options)).team_id;
  }
}
