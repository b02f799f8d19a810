import { mkdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { XModelsClient } from '../client';
import type { ConnectInfo, Team } from '../contract';
import type { ConnectionState, ContextKeys } from '../common/contextKeys';
import { describeError, isUnauthorized, isUnreachable, UserFacingError } from '../common/errors';
import type { SettingsAccessor } from '../common/settings';
import type { TreeFeatures } from '../tree/nodes';
import type { HostedAuthProvider, HostedSession } from './hostedAuthProvider';
import { LocalServiceProcess } from './localServiceProcess';
import { traceClient } from './requestTrace';
import { hostedNetworkOptions, systemCertificates } from './vscodeNetwork';
import type { ServiceLine } from './serviceLine';

/** Another service, or another team of this one, that a model can be copied to (the copy flow's destination). */
export interface CopyDestination {
  label: string;
  description: string;
  open(): Promise<{ client: XModelsClient; close(): Promise<void> }>;
}

export type ConnectionMode = 'local' | 'hosted';

export interface ConnectionSnapshot {
  state: ConnectionState;
  mode: ConnectionMode;
  /** Where: `local service` or the hosted host name. */
  where: string;
  team: Team | undefined;
  username: string | undefined;
  /** Why the connection is not up (offline / signed out). */
  reason: string | undefined;
}

export interface ConnectionDependencies {
  settings: SettingsAccessor;
  contextKeys: ContextKeys;
  log: vscode.LogOutputChannel;
  auth: HostedAuthProvider;
  globalState: vscode.Memento;
  /** `dist/cli.js` of the extension. */
  cliPath: string;
  /** Default data folder of the local service (`<globalStorage>/service`). */
  defaultDataDir: string;
  /** Called with every API key in use, so the log can mask it. */
  rememberSecret(secret: string): void;
  /** Runs after each start of the local service, before the extension counts as connected (what it keeps in memory only). */
  prepareLocalService(client: XModelsClient): Promise<void>;
}

const noFeatures: TreeFeatures = { deleteModel: false, predict: false, preprocessors: false, sources: false, copyModel: false, edits: false };

/**
 * The one owner of the service connection: starts and supervises the local service, or signs in to the hosted one,
 * builds the client, tracks the team and the service's optional features, and reports state changes.
 */
export class ConnectionManager implements vscode.Disposable {
  private readonly _onDidChangeConnection = new vscode.EventEmitter<void>();
  readonly onDidChangeConnection = this._onDidChangeConnection.event;

  private _state: ConnectionState = 'idle';
  private _mode: ConnectionMode = 'local';
  private _features: TreeFeatures = noFeatures;
  private client: XModelsClient | undefined;
  private info: ConnectInfo | undefined;
  private where = 'local service';
  private reason: string | undefined;
  private pending: Promise<void> | undefined;
  private generation = 0;
  private local: LocalServiceProcess | undefined;
  private localStart: Promise<ServiceLine> | undefined;
  private restartedAfterCrash = false;
  private checkingReachability: Promise<void> | undefined;
  /** The hosted address, path prefix and proxy last seen, to reconnect when they change. */
  private hostedSettings: string;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly deps: ConnectionDependencies) {
    const settings = deps.settings.current;
    this.hostedSettings = JSON.stringify([settings.hosted, settings.network.proxy, deps.settings.http]);
    this.subscriptions.push(
      deps.settings.onDidChangeSettings((settings) => {
        const hosted = JSON.stringify([settings.hosted, settings.network.proxy, deps.settings.http]);
        const hostedChanged = hosted !== this.hostedSettings;
        this.hostedSettings = hosted;
        if (settings.connection.mode !== this._mode || (this._mode === 'hosted' && hostedChanged)) void this.connect();
      }),
      deps.auth.onDidChangeSessions(() => {
        if (this._mode === 'hosted') void this.connect();
      }),
    );
  }

  get state(): ConnectionState {
    return this._state;
  }
  get mode(): ConnectionMode {
    return this._mode;
  }
  get features(): TreeFeatures {
    return this._features;
  }
  /** The local service's process id while it runs (tests and the log use it). */
  get localServicePid(): number | undefined {
    return this.local?.pid;
  }
  get teams(): Team[] {
    return this.info?.teams ?? [];
  }
  get snapshot(): ConnectionSnapshot {
    const team = this.info ? { team_id: this.info.team_id, team_name: this.info.team_name } : undefined;
    return { state: this._state, mode: this._mode, where: this.where, team, username: this.info?.username, reason: this.reason };
  }

  /** Connects on first need: activation leaves the service alone until a view, command or panel asks for data. */
  start(): void {
    if (this._state === 'idle' && !this.pending) void this.connect();
  }

  /** The connected client (connecting first if nothing has yet); waits while connecting, and explains what to do when not connected. */
  async getClient(): Promise<XModelsClient> {
    this.start();
    if (this.pending) await this.pending;
    if (this._state === 'connected' && this.client) return this.client;
    const next = this._state === 'signedOut' ? vscode.l10n.t('Run "XModels: Connect to Hosted Service…".') : vscode.l10n.t('Use Retry in the XModels view.');
    const notConnected = this.reason ? vscode.l10n.t('XModels is not connected ({0}).', this.reason) : vscode.l10n.t('XModels is not connected.');
    throw new UserFacingError(`${notConnected} ${next}`);
  }

  /** (Re)connects according to the `xmodels.connection.mode` setting; concurrent calls share one attempt. */
  connect(): Promise<void> {
    const generation = ++this.generation;
    const attempt = this.runConnect(generation).finally(() => {
      if (this.pending === attempt) this.pending = undefined;
    });
    this.pending = attempt;
    return attempt;
  }

  /** Retry from the welcome view or a message: also re-arms the one automatic restart of the local service. */
  retry(): Promise<void> {
    this.restartedAfterCrash = false;
    return this.connect();
  }

  async useMode(mode: ConnectionMode): Promise<void> {
    if (this.deps.settings.current.connection.mode !== mode) await this.deps.settings.setConnectionMode(mode);
    await this.connect();
  }

  /** Uses another of the key's teams for every later call. */
  async selectTeam(teamId: string): Promise<void> {
    const client = await this.getClient();
    client.useTeam(teamId);
    this.info = await client.connect({ refresh: true });
    await this.deps.globalState.update(this.teamStateKey(), teamId);
    this.deps.log.info(`Using team ${this.info.team_name} (${this.info.team_id})`);
    this._onDidChangeConnection.fire();
  }

  /**
   * A request failed because the service could not be reached: go offline once (no message per failed request),
   * unless the current service still answers. A late failure of a request sent before a reconnect (its client is
   * closed by then) must not take the new connection down.
   */
  reportUnreachable(error: unknown): void {
    const client = this.client;
    // Failures of several requests at once share one check.
    if (this._state !== 'connected' || !client || this.checkingReachability) return;
    this.checkingReachability = client.health().then(
      () => undefined,
      () => {
        if (this._state === 'connected' && this.client === client) this.goOffline(describeError(error));
      },
    );
    void this.checkingReachability.finally(() => (this.checkingReachability = undefined));
  }

  private async runConnect(generation: number): Promise<void> {
    const mode = this.deps.settings.current.connection.mode;
    this._mode = mode;
    void this.deps.contextKeys.set('xmodels.connectionMode', mode);
    this.setState('connecting');
    await this.closeClient();
    try {
      const client = mode === 'local' ? await this.startLocal() : await this.signInHosted();
      if (!client || generation !== this.generation) return;
      const teamId = this.deps.globalState.get<string>(this.teamStateKey());
      if (teamId) client.useTeam(teamId);
      let info = await client.connect().catch((error: unknown) => {
        if (!teamId || isUnreachable(error) || isUnauthorized(error)) throw error;
        client.useTeam(undefined);
        return client.connect();
      });
      if (teamId && info.team_id !== teamId) info = await client.connect({ refresh: true });
      const features = await client.health().then((health) => new Set(health.features), () => new Set<string>());
      if (mode === 'local') await this.deps.prepareLocalService(client);
      if (generation !== this.generation) return;
      this.client = traceClient(client, this.deps.log, () => this.deps.settings.current.trace.requests);
      this.info = info;
      this._features = {
        deleteModel: features.has('delete_model'),
        predict: features.has('predict'),
        preprocessors: features.has('preprocessors'),
        sources: features.has('sources'),
        copyModel: features.has('model_payload'),
        edits: features.has('edits'),
      };
      this.reason = undefined;
      this.deps.log.info(`Connected to the ${this.where} as ${info.username}, team ${info.team_name}`);
      this.setState('connected');
    } catch (error) {
      if (generation !== this.generation) return;
      this.deps.log.error('Connecting failed', error);
      if (mode === 'hosted' && isUnauthorized(error)) {
        this.reason = describeError(error);
        this.setState('signedOut');
        const connect = vscode.l10n.t('Connect to Hosted Service…');
        void vscode.window.showWarningMessage(vscode.l10n.t('The hosted XModels service rejected the stored API key: {0}', this.reason), connect).then((choice) => {
          if (choice) void vscode.commands.executeCommand('xmodels.connection.useHosted');
        });
      } else {
        this.goOffline(describeError(error));
      }
    }
  }

  private async startLocal(): Promise<XModelsClient> {
    this.where = 'local service';
    if (!this.local?.running || !this.localStart) {
      this.local?.dispose();
      const local = this.localProcess();
      this.local = local;
      local.onDidExitUnexpectedly((exit) => this.onLocalServiceExit(local, exit.code ?? exit.signal));
      this.localStart = local.start();
    }
    // A second connect while the service is still starting waits for the same start.
    return this.localClient(await this.localStart);
  }

  /** The local service's process, on the data folder of the settings (not started). */
  private localProcess(): LocalServiceProcess {
    const settings = this.deps.settings.current;
    const dataDir = settings.localService.dataDirectory || this.deps.defaultDataDir;
    mkdirSync(dataDir, { recursive: true });
    return new LocalServiceProcess({ cliPath: this.deps.cliPath, dataDir, startTimeoutMs: settings.localService.startTimeoutSeconds * 1000, log: this.deps.log });
  }

  private localClient(line: ServiceLine): XModelsClient {
    this.deps.rememberSecret(line.api_key);
    return new XModelsClient({
      baseUrl: line.url,
      apiKey: line.api_key,
      proxy: null,
      // The extension's own service reads the files the user names where they lie: no upload limit, no second copy.
      filesInPlace: true,
      timeoutMs: this.deps.settings.current.network.requestTimeoutSeconds * 1000,
      onRetry: (retry) => this.deps.log.warn(`Retrying ${retry.request} in ${retry.delayMs} ms: ${retry.reason}`),
    });
  }

  /**
   * Where a model of the connected service can be copied: the other teams of its key, and the other service: the
   * hosted one when its key is stored, or, from the hosted one, the local service (started for the copy).
   */
  async copyDestinations(): Promise<CopyDestination[]> {
    await this.getClient();
    const info = this.info;
    const otherTeams = (info?.teams ?? []).filter((team) => team.team_id !== info?.team_id);
    const session = await this.deps.auth.currentSession();
    const hostedLabel = (baseUrl: string) => vscode.l10n.t('Hosted service ({0})', new URL(baseUrl).host);
    const team = (t: Team | undefined) => (t ? vscode.l10n.t('team {0}', t.team_name) : vscode.l10n.t("the key's team"));
    const onTeam = (label: string, t: Team | undefined, client: () => XModelsClient | Promise<XModelsClient>): CopyDestination => ({
      label,
      description: team(t),
      open: async () => {
        const opened = await client();
        if (t) opened.useTeam(t.team_id);
        return { client: opened, close: () => opened.close() };
      },
    });
    if (this._mode === 'local') {
      const line = this.localStart;
      const here = line ? otherTeams.map((t) => onTeam(vscode.l10n.t('Local service'), t, async () => this.localClient(await line))) : [];
      const hosted = session ? (session.teams.length ? session.teams : [undefined]).map((t) => onTeam(hostedLabel(session.baseUrl), t, () => this.hostedClient(session))) : [];
      return [...hosted, ...here];
    }
    const here = session ? otherTeams.map((t) => onTeam(hostedLabel(session.baseUrl), t, () => this.hostedClient(session))) : [];
    return [this.temporaryLocalDestination(), ...here];
  }

  /** The local service as a destination while connected to the hosted one: started for the copy, stopped after it. */
  private temporaryLocalDestination(): CopyDestination {
    return {
      label: vscode.l10n.t('Local service'),
      description: vscode.l10n.t('started for the copy'),
      open: async () => {
        const local = this.localProcess();
        const client = this.localClient(await local.start());
        return {
          client,
          close: async () => {
            await client.close();
            await local.stop();
            local.dispose();
          },
        };
      },
    };
  }
  private async signInHosted(): Promise<XModelsClient | undefined> {
    await this.stopLocal();
    const session = await this.deps.auth.currentSession();
    if (!session) {
      this.reason = 'no API key for the hosted service';
      this.where = 'hosted service';
      this.setState('signedOut');
      return undefined;
    }
    this.where = new URL(session.baseUrl).host;
    return this.hostedClient(session);
  }

  /** A client for the hosted service with the user's proxy and path settings (also used to check a new key). */
  hostedClient(session: Pick<HostedSession, 'baseUrl' | 'accessToken'>): XModelsClient {
    const settings = this.deps.settings.current;
    this.deps.rememberSecret(session.accessToken);
    return new XModelsClient({
      baseUrl: session.baseUrl,
      apiKey: session.accessToken,
      pathPrefix: settings.hosted.pathPrefix || undefined,
      ...hostedNetworkOptions(settings.network.proxy, this.deps.settings.http, systemCertificates),
      timeoutMs: settings.network.requestTimeoutSeconds * 1000,
      onRetry: (retry) => this.deps.log.warn(`Retrying ${retry.request} in ${retry.delayMs} ms: ${retry.reason}`),
    });
  }

  private onLocalServiceExit(local: LocalServiceProcess, code: number | string | null): void {
    if (local !== this.local || this._mode !== 'local') return;
    this.localStart = undefined;
    if (!this.restartedAfterCrash) {
      this.restartedAfterCrash = true;
      this.deps.log.warn(`The local service stopped unexpectedly (exit ${code}); restarting it once.`);
      void vscode.window.showInformationMessage(vscode.l10n.t('The local XModels service stopped unexpectedly (exit {0}) and is being restarted.', String(code)));
      void this.connect();
      return;
    }
    this.goOffline(`the local service stopped again (exit ${code})`);
  }

  private goOffline(reason: string): void {
    const wasOffline = this._state === 'offline';
    this.reason = reason;
    this.setState('offline');
    if (wasOffline) return;
    const [retry, useLocal, showLog] = [vscode.l10n.t('Retry'), vscode.l10n.t('Use Local Service'), vscode.l10n.t('Show Log')];
    const actions = this._mode === 'local' ? [retry, showLog] : [retry, useLocal, showLog];
    void vscode.window.showWarningMessage(vscode.l10n.t('XModels cannot reach the {0}: {1}', this.where, reason), ...actions).then((choice) => {
      if (choice === retry) void this.retry();
      else if (choice === useLocal) void this.useMode('local');
      else if (choice === showLog) this.deps.log.show(true);
    });
  }

  private setState(state: ConnectionState): void {
    const changed = state !== this._state;
    this._state = state;
    void this.deps.contextKeys.set('xmodels.connectionState', state);
    if (state !== 'connected') {
      this.info = undefined;
      this._features = noFeatures;
    }
    if (changed || state === 'connected') this._onDidChangeConnection.fire();
  }

  private teamStateKey(): string {
    return `xmodels.team:${this._mode === 'local' ? 'local' : this.deps.settings.current.hosted.baseUrl}`;
  }

  private async closeClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async stopLocal(): Promise<void> {
    const local = this.local;
    this.local = undefined;
    this.localStart = undefined;
    await local?.stop();
    local?.dispose();
  }

  /** Stops the local service and closes connections (deactivate). */
  async stop(): Promise<void> {
    this.generation++;
    await this.closeClient();
    await this.stopLocal();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this._onDidChangeConnection.dispose();
  }
}
