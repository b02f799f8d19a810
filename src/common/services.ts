import type * as vscode from 'vscode';
import type { XModelsClient } from '../client';
import type { TextGenConfig } from '../contract/autotrain';
import type { Prompter } from '../prompts/prompter';
import type { SettingsAccessor } from './settings';

/** What the extension's composition root builds once and hands to every feature (panels, commands, flows' glue). */
export interface XModelsServices {
  /** The connected client; rejects with a user-facing error when the extension is not connected. */
  getClient(): Promise<XModelsClient>;
  readonly log: vscode.LogOutputChannel;
  readonly settings: SettingsAccessor;
  readonly extensionUri: vscode.Uri;
  /** Registers a command through the one wrapper that logs, masks secrets and stays silent on cancel. */
  registerCommand(id: string, handler: (...args: never[]) => unknown): vscode.Disposable;
  /** Refreshes the model explorer and reveals a model (and one of its versions). */
  revealModel(modelId: string, versionId?: string): Promise<void>;
  refreshModels(): void;
  /** Reloads one model's versions in the explorer. */
  refreshModel(modelId: string): void;
  /** Shows `message` as a busy row in the model explorer while `work` runs. */
  whileModelsBusy<T>(message: string, work: () => Promise<T>): Promise<T>;
  /**
   * The `textgen_config` every autotrain call sends: the `xmodels.textgen.*` settings plus the stored API key, which
   * goes to a hosted service only over HTTPS (or on this machine) and once the user agreed to send it there.
   */
  textGenConfig(): Promise<TextGenConfig>;
  /** Asks, once per hosted service, whether the stored API key may be sent to it; false when the question was dismissed. */
  askTextGenKeyConsent(prompter: Prompter): Promise<boolean>;
  /** Every prompt goes through this, so tests can answer in place of the user. */
  readonly prompter: Prompter;
}
