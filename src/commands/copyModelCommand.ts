import * as vscode from 'vscode';
import type { XModelsServices } from '../common/services';
import type { CopyDestination } from '../connection/connectionManager';
import { copyModel, copyReportMarkdown, copySummary, type CopyOutcome } from '../flows/copyModel/copyModelFlow';
import { asModelRef, requireRef } from './modelRefs';
import { underProgress } from './progress';

/** `xmodels.models.copyTo`: copies a model with its versions to another service or team, and reports what was copied. */
export class CopyModelCommand {
  constructor(
    private readonly services: XModelsServices,
    private readonly destinations: () => Promise<CopyDestination[]>,
  ) {}

  async copy(arg?: unknown): Promise<CopyOutcome | undefined> {
    const ref = requireRef(asModelRef(arg), 'model');
    const client = await this.services.getClient();
    const model = ref.model ?? (await client.models.getModel(ref.modelId));
    const outcome = await copyModel({ prompter: this.services.prompter, source: client.models, destinations: this.destinations, underProgress }, model);
    if (!outcome) return undefined;
    const { report } = outcome;
    this.services.log.info(`Copied ${model.model_name} to ${outcome.destination.label}, ${outcome.destination.description}: ${JSON.stringify(report)}`);
    const complete = !report.cancelled && report.versions.every((v) => v.status === 'copied' || v.status === 'already_copied');
    const open = vscode.l10n.t('Open Report');
    const show = complete ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
    void show(copySummary(outcome), open).then(async (choice) => {
      if (choice !== open) return;
      const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: copyReportMarkdown(outcome) });
      await vscode.window.showTextDocument(document);
    });
    return outcome;
  }
}
