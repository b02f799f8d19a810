import type * as vscode from 'vscode';
import type { XModelsClient } from '../client';
import type { TextGenConfig } from '../contract/autotrain';
import type { QuickInputs } from './multiStepInput';

/** What the extension's composition root hands to every feature (panels, wizard, commands). */
export interface XModelsServices {
  /** The connected client; rejects with a user-facing error when the extension is not connected. */
  getClient(): Promise<XModelsClient>;
  readonly log: vscode.LogOutputChannel;
  readonly extensionUri: vscode.Uri;
  /** Registers a command through the one wrapper that logs, masks secrets and stays silent on cancel. */
  registerCommand(id: string, handler: (...args: never[]) => unknown): vscode.Disposable;
  /** Refreshes the model explorer and reveals a model (and one of its versions). */
  revealModel(modelId: string, versionId?: string): Promise<void>;
  refreshModels(): void;
  /** The `textgen_config` every autotrain call sends: the `xmodels.textgen.*` settings plus the stored API key. */
  textGenConfig(): Promise<TextGenConfig>;
  /**
   * Every prompt (QuickPick, InputBox, file picker, confirmation) goes through this, so tests can answer in place of
   * the user. Multi-step flows use `runSteps` from `src/common/multiStepInput.ts` with it.
   */
  readonly inputs: QuickInputs;
}
