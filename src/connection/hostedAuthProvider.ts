import * as vscode from 'vscode';
import * as z from 'zod';
import type { ConnectInfo } from '../contract';
import { describeError } from '../common/errors';
import { answered, type Prompter } from '../prompts/prompter';
import { DONE, runSteps, stepPosition, type Step } from '../prompts/steps';

export const AUTH_PROVIDER_ID = 'xmodels';
const SECRET_KEY = 'xmodels.hosted.session';

const StoredSessionSchema = z.object({
  id: z.string(),
  baseUrl: z.string(),
  apiKey: z.string(),
  username: z.string(),
  teams: z.array(z.object({ team_id: z.string(), team_name: z.string() })).default([]),
});
export type StoredSession = z.infer<typeof StoredSessionSchema>;

export interface HostedSession extends vscode.AuthenticationSession {
  readonly baseUrl: string;
  readonly teams: StoredSession['teams'];
}

export interface HostedAuthDependencies {
  secrets: vscode.SecretStorage;
  prompter: Prompter;
  log: vscode.LogOutputChannel;
  /** The base URL setting ('' when unset). */
  baseUrl(): string;
  saveBaseUrl(url: string): Promise<void>;
  /** Asks the service who the key belongs to; rejects with the client's error. */
  connect(baseUrl: string, apiKey: string): Promise<ConnectInfo>;
}

/**
 * The hosted service's API key as an authentication session: kept in SecretStorage, listed in the Accounts menu,
 * checked with `connect` before it is stored, and shared with other windows through `secrets.onDidChange`.
 */
export class HostedAuthProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly _onDidChangeSessions = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this._onDidChangeSessions.event;
  private readonly subscriptions: vscode.Disposable[];
  private known: HostedSession | undefined;

  constructor(private readonly deps: HostedAuthDependencies) {
    this.subscriptions = [
      vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'XModels (hosted service)', this, {
        supportsMultipleAccounts: false,
      }),
      deps.secrets.onDidChange(async (event) => {
        if (event.key === SECRET_KEY) await this.syncFromStorage();
      }),
    ];
  }

  /** The stored session, whatever the scopes (a key is not scoped). */
  async getSessions(): Promise<HostedSession[]> {
    const session = await this.read();
    return session ? [session] : [];
  }

  /** The stored key, when there is one, for the configured base URL. */
  async currentSession(): Promise<HostedSession | undefined> {
    const session = await this.read();
    return session && session.baseUrl === this.deps.baseUrl() ? session : undefined;
  }

  /** Asks for the service address and an API key, checks the key with `connect`, then stores it. */
  async createSession(): Promise<HostedSession> {
    const { prompter } = this.deps;
    const title = vscode.l10n.t('Connect to a hosted XModels service');
    let baseUrl = this.deps.baseUrl();
    let apiKey = '';
    let info: ConnectInfo | undefined;
    const keyStep: Step = async () => {
      const key = await prompter.input({
        id: 'apiKey',
        position: stepPosition(title, 2, 2),
        prompt: vscode.l10n.t('API key for {0} (stored in the OS secret store)', baseUrl),
        value: '',
        password: true,
        validate: (value) => (value.trim() ? undefined : vscode.l10n.t('Enter the API key.')),
        check: async (value) => {
          try {
            info = await this.deps.connect(baseUrl, value.trim());
            return undefined;
          } catch (error) {
            this.deps.log.warn(`The hosted service did not accept the key: ${describeError(error)}`);
            return vscode.l10n.t('Not accepted: {0}', describeError(error));
          }
        },
      });
      if (!answered(key)) return key;
      apiKey = key.trim();
      return DONE;
    };
    const addressStep: Step = async () => {
      const address = await prompter.input({
        id: 'address',
        position: stepPosition(title, 1, 2),
        prompt: vscode.l10n.t('Address of the hosted service'),
        placeholder: 'https://models.example.com',
        value: baseUrl,
        validate: (value) => (/^https?:\/\/[^\s/]+/i.test(value.trim()) ? undefined : vscode.l10n.t('Enter an address starting with http:// or https://.')),
      });
      if (!answered(address)) return address;
      baseUrl = address.trim().replace(/\/+$/, '');
      return keyStep;
    };
    if (!(await runSteps(addressStep)) || !info) throw new vscode.CancellationError();
    await this.deps.saveBaseUrl(baseUrl);
    const stored: StoredSession = { id: `${baseUrl}#${info.username}`, baseUrl, apiKey, username: info.username, teams: info.teams };
    const previous = await this.read();
    await this.deps.secrets.store(SECRET_KEY, JSON.stringify(stored));
    const session = toSession(stored);
    this.known = session;
    this._onDidChangeSessions.fire({ added: [session], removed: previous ? [previous] : [], changed: [] });
    this.deps.log.info(`Signed in to ${baseUrl} as ${info.username}`);
    return session;
  }

  async removeSession(): Promise<void> {
    const previous = await this.read();
    await this.deps.secrets.delete(SECRET_KEY);
    this.known = undefined;
    if (previous) this._onDidChangeSessions.fire({ added: [], removed: [previous], changed: [] });
  }

  private async read(): Promise<HostedSession | undefined> {
    let raw: string | undefined;
    try {
      raw = await this.deps.secrets.get(SECRET_KEY);
    } catch (error) {
      this.deps.log.error('The OS secret store could not be read (on Linux a keyring such as gnome-keyring is needed)', error);
      return undefined;
    }
    if (!raw) return undefined;
    try {
      return toSession(StoredSessionSchema.parse(JSON.parse(raw)));
    } catch {
      this.deps.log.warn('The stored hosted-service session is unreadable; sign in again.');
      return undefined;
    }
  }

  /** Another window signed in or out: report the difference. */
  private async syncFromStorage(): Promise<void> {
    const current = await this.read();
    const previous = this.known;
    this.known = current;
    if (current?.accessToken === previous?.accessToken) return;
    this._onDidChangeSessions.fire({ added: current ? [current] : [], removed: previous ? [previous] : [], changed: [] });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this._onDidChangeSessions.dispose();
  }
}

function toSession(stored: StoredSession): HostedSession {
  return {
    id: stored.id,
    accessToken: stored.apiKey,
    account: { id: stored.username, label: `${stored.username} @ ${new URL(stored.baseUrl).host}` },
    scopes: [],
    baseUrl: stored.baseUrl,
    teams: stored.teams,
  };
}
