import * as vscode from 'vscode';

/** `idle`: nothing has needed the service yet, so it has not been started (or signed in to). */
export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'offline' | 'signedOut';

/** The `when`-clause keys this extension sets; menus and welcome views in package.json read them. */
export interface ContextKeyValues {
  'xmodels.connectionState': ConnectionState;
  'xmodels.connectionMode': 'local' | 'hosted';
  'xmodels.hasModels': boolean;
  'xmodels.hasDataConnections': boolean;
}

/** Sets context keys, skipping writes that would not change anything. */
export class ContextKeys {
  private readonly values = new Map<string, unknown>();

  async set<K extends keyof ContextKeyValues>(key: K, value: ContextKeyValues[K]): Promise<void> {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    await vscode.commands.executeCommand('setContext', key, value);
  }

  get<K extends keyof ContextKeyValues>(key: K): ContextKeyValues[K] | undefined {
    return this.values.get(key) as ContextKeyValues[K] | undefined;
  }
}
