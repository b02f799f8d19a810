import * as vscode from 'vscode';
import type { XModelsServices } from '../common/services';
import { linkPreprocessor, type Linked } from '../flows/linkPreprocessor/linkPreprocessorFlow';
import { asVersionRef, requireRef, resolveVersion } from './modelRefs';
import { underProgress } from './progress';

/** `xmodels.models.linkPreprocessor`: link an existing preprocessor version to a model version, or create one. */
export class LinkPreprocessorCommand {
  constructor(private readonly services: XModelsServices) {}

  async link(arg?: unknown): Promise<Linked | undefined> {
    const ref = requireRef(asVersionRef(arg), 'model version');
    const client = await this.services.getClient();
    const { model, version } = await resolveVersion(client, ref);
    const linked = await linkPreprocessor({
      prompter: this.services.prompter,
      client,
      underProgress: (title, task) => underProgress(title, task),
      warn: (message) => void vscode.window.showWarningMessage(message),
    }, model, version);
    if (!linked) return undefined;
    this.services.log.info(`Linked preprocessor ${linked.preprocessorName} v${linked.versionNumber} to ${model.model_name} v${version.version_number}`);
    this.services.refreshModel(model.model_id);
    await this.services.revealModel(model.model_id, version.version_id);
    void vscode.window.showInformationMessage(vscode.l10n.t('Linked {0} v{1} to {2} v{3}.', linked.preprocessorName, linked.versionNumber, model.model_name, version.version_number));
    return linked;
  }
}
