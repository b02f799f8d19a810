import * as vscode from 'vscode';
import { describeError, UserFacingError } from './errors';
import { answered, type Prompter } from '../prompts/prompter';

const SECRET_KEY = 'xmodels.textgen.apiKey';
const KEYRING_HINT = 'on Linux a keyring such as gnome-keyring is needed';

export interface TextGenKeyDeps {
  secrets: vscode.SecretStorage;
  prompter: Prompter;
  log: vscode.LogOutputChannel;
  /** Adds the key to the values the log masks. */
  rememberSecret(secret: string): void;
  /** True while `xmodels.textgen.provider` is `rules`, so the stored key would not be used yet. */
  usesRulesOnly(): boolean;
  /** Called once a key was stored or removed: whether it may go to a hosted service is asked again. */
  keyChanged(): Promise<void>;
}

/** The text-generation provider's API key, kept in SecretStorage only. */
export class TextGenKeyStore {
  constructor(private readonly deps: TextGenKeyDeps) {}

  /** The stored key, or undefined (none stored, or the secret store cannot be read: the service's environment applies). */
  async get(): Promise<string | undefined> {
    let key: string | undefined;
    try {
      key = await this.deps.secrets.get(SECRET_KEY);
    } catch (error) {
      this.deps.log.error(`The text-generation API key could not be read from the OS secret store (${KEYRING_HINT})`, error);
      return undefined;
    }
    if (key) this.deps.rememberSecret(key);
    return key || undefined;
  }

  /** `xmodels.textgen.setApiKey`: asks for the key (hidden); an empty answer removes the stored key. */
  async askAndStore(): Promise<void> {
    const typed = await this.deps.prompter.input({
      id: 'apiKey',
      position: { title: vscode.l10n.t('Text-Generation API Key'), canGoBack: false },
      prompt: vscode.l10n.t('API key of the text-generation provider, kept in the OS secret store. Leave empty to remove the stored key.'),
      value: '',
      password: true,
    });
    if (!answered(typed)) return;
    const answer = typed.trim();
    if (answer) this.deps.rememberSecret(answer);
    try {
      if (answer) await this.deps.secrets.store(SECRET_KEY, answer);
      else await this.deps.secrets.delete(SECRET_KEY);
    } catch (error) {
      throw new UserFacingError(vscode.l10n.t('The OS secret store could not be written ({0}): {1}', KEYRING_HINT, describeError(error)));
    }
    await this.deps.keyChanged();
    this.deps.log.info(answer ? 'Text-generation API key stored.' : 'Text-generation API key removed.');
    if (!answer) void vscode.window.showInformationMessage(vscode.l10n.t('The text-generation API key was removed.'));
    else if (!this.deps.usesRulesOnly()) void vscode.window.showInformationMessage(vscode.l10n.t('The text-generation API key was saved in the OS secret store.'));
    else {
      const message = vscode.l10n.t('The text-generation API key was saved. Autotrain answers from rules until you choose a provider in the xmodels.textgen.provider setting.');
      void vscode.window.showInformationMessage(message, vscode.l10n.t('Choose Provider')).then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'xmodels.textgen');
      });
    }
  }
}
