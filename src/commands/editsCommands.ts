import * as vscode from 'vscode';
import type { XModelsServices } from '../common/services';
import { applyEditsFile, type ApplyEditsOutcome } from '../flows/edits/applyEditsFlow';
import { fitting, metricsText } from '../flows/edits/editsReport';
import { exportEdits } from '../flows/edits/exportEditsFlow';
import { asVersionRef, resolveVersion } from './modelRefs';
import { underProgress } from './progress';
import { offerPanels } from './trainedMessage';

const editsFilters = () => ({ [vscode.l10n.t('Edits files')]: ['json'] });
const workspaceFolder = () => vscode.workspace.workspaceFolders?.[0]?.uri;

/** `xmodels.models.exportEdits` and `xmodels.models.applyEdits`: a version's hand edits to a file, and a file's edits onto a version. */
export class EditsCommands {
  constructor(private readonly services: XModelsServices) {}

  /** Writes the edits of a version (from the Models view, else asked for) to a JSON file the user names. */
  async exportEdits(arg?: unknown): Promise<vscode.Uri | undefined> {
    const client = await this.services.getClient();
    const ref = asVersionRef(arg);
    const source = ref ? await resolveVersion(client, ref) : undefined;
    const exported = await exportEdits({ prompter: this.services.prompter, models: client.models }, source);
    if (!exported) return undefined;
    const folder = workspaceFolder();
    const uri = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export the edits of {0} v{1}', exported.model.model_name, exported.version.version_number),
      defaultUri: folder ? vscode.Uri.joinPath(folder, exported.fileName) : undefined,
      filters: editsFilters(),
      saveLabel: vscode.l10n.t('Export Edits'),
    });
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(exported.text));
    this.services.log.info(`Exported the ${exported.file.edits.length} edits of ${exported.model.model_name} v${exported.version.version_number} to ${uri.toString()}`);
    const open = vscode.l10n.t('Open');
    void vscode.window
      .showInformationMessage(vscode.l10n.t('Wrote the edits of {0} v{1} to {2}.', exported.model.model_name, exported.version.version_number, vscode.workspace.asRelativePath(uri)), open)
      .then((choice) => (choice === open ? vscode.window.showTextDocument(uri) : undefined));
    return uri;
  }

  /**
   * Applies an edits file to a version: the file from the Explorer (then the version is asked for) or asked for when
   * run on a version of the Models view or from the Command Palette.
   */
  async applyEdits(arg?: unknown): Promise<ApplyEditsOutcome | undefined> {
    const client = await this.services.getClient();
    const ref = asVersionRef(arg);
    const file = arg instanceof vscode.Uri ? arg : await this.pickFile();
    if (!file) return undefined;
    const target = ref ? await resolveVersion(client, ref) : undefined;
    const fileName = file.path.slice(file.path.lastIndexOf('/') + 1);
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    const outcome = await applyEditsFile(
      {
        prompter: this.services.prompter,
        models: client.models,
        showReport: async (content) => {
          await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'markdown', content }), { preview: false });
        },
        underProgress: (title, task) => underProgress(title, (signal) => task(signal)),
      },
      fileName,
      text,
      target,
    );
    if (!outcome) return undefined;
    const { model, version, mapped, saved, preview } = outcome;
    const fit = fitting(mapped).length;
    this.services.log.info(`Applied ${fileName} to ${model.model_name} v${version.version_number}: ${fit} of ${mapped.length} edits fit${saved ? `, saved as ${saved.version_id}` : ''}`);
    if (fit === 0) {
      void vscode.window.showWarningMessage(vscode.l10n.t('None of the {0} edits of {1} fits v{2} of {3}: the report says why.', mapped.length, fileName, version.version_number, model.model_name));
      return outcome;
    }
    if (!saved) return outcome;
    await this.services.revealModel(saved.model_id, saved.version_id);
    const metrics = preview ? metricsText(preview) : undefined;
    const misfits = mapped.length - fit;
    offerPanels(
      [
        vscode.l10n.t('Saved {0} of the {1} edits of {2} on {3} v{4} as a new version.', fit, mapped.length, fileName, model.model_name, version.version_number),
        ...(metrics ? [vscode.l10n.t('With them: {0}.', metrics)] : []),
        ...(misfits ? [vscode.l10n.t('{0} did not fit: the report says why.', misfits)] : []),
      ].join(' '),
      saved,
      model.model_name,
    );
    return outcome;
  }

  private async pickFile(): Promise<vscode.Uri | undefined> {
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Apply Edits from File'),
      canSelectMany: false,
      openLabel: vscode.l10n.t('Apply Edits'),
      filters: editsFilters(),
      defaultUri: workspaceFolder(),
    });
    return picked?.[0];
  }
}
