import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import * as vscode from 'vscode';
import { describeError, UserFacingError } from '../common/errors';
import type { XModelsServices } from '../common/services';
import { DONE, runSteps } from '../prompts/steps';
import { reportFileName, type ReportFormat } from '../report/fileName';
import { splitImages } from '../report/markdownImages';
import { asVersionRef, resolveVersion, type VersionRef } from './modelRefs';
import { underProgress } from './progress';
import { pickVersionSteps } from './versionPicker';

const formatOf = (path: string): ReportFormat => (/^\.(md|markdown)$/i.test(extname(path)) ? 'markdown' : 'html');

/**
 * `xmodels.models.exportReport`: a version's report, made by the service, saved where the user says: one HTML file
 * that opens offline in any browser, or Markdown with its charts as SVG files in a folder beside it.
 */
export class ReportCommand {
  constructor(private readonly ctx: XModelsServices) {}

  async export(arg?: unknown): Promise<vscode.Uri | undefined> {
    const client = await this.ctx.getClient();
    let ref: VersionRef | undefined = asVersionRef(arg);
    if (!ref) {
      const title = vscode.l10n.t('Export Model Report');
      const picked = await runSteps(
        pickVersionSteps(client, this.ctx.prompter, {
          title,
          total: 2,
          placeholder: vscode.l10n.t('Model to report on'),
          then: (version) => {
            ref = version;
            return DONE;
          },
        }),
      );
      if (!picked || !ref) return undefined;
    }
    const { model, version } = await resolveVersion(client, ref);
    const name = `${model.model_name} v${version.version_number}`;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir());
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Save the report of {0}', name),
      defaultUri: vscode.Uri.joinPath(folder, reportFileName(model.model_name, version.version_number, 'html')),
      filters: { [vscode.l10n.t('HTML page')]: ['html'], [vscode.l10n.t('Markdown with SVG images beside it')]: ['md'] },
      saveLabel: vscode.l10n.t('Save Report'),
    });
    if (!target) return undefined;
    const format = formatOf(target.fsPath);
    const report = await underProgress(vscode.l10n.t('Making the report of {0}', name), (signal) =>
      client.models.getModelReport(version.version_id, format, { signal }).catch((error: unknown) => {
        if ((error as { status?: number }).status !== 404 || signal.aborted) throw error;
        throw new UserFacingError(
          vscode.l10n.t('Could not make the report of {0}: {1} A hosted service may not make reports: use the local service (XModels: Use Local Service).', name, describeError(error).replace(/\.?$/, '.')),
        );
      }),
    );
    let images = 0;
    if (format === 'markdown') images = await this.writeMarkdown(target.fsPath, report);
    else await writeFile(target.fsPath, report);
    this.ctx.log.info(`Wrote the report of ${name} to ${target.fsPath}${images ? ` and ${images} figures beside it` : ''}`);
    void this.offerToOpen(target, format);
    return target;
  }

  /** The Markdown, and its charts as SVG files in `<name>-figures/` beside it; resolves with how many. */
  private async writeMarkdown(path: string, report: string): Promise<number> {
    const figures = `${basename(path, extname(path))}-figures`;
    const { markdown, images } = splitImages(report, figures);
    if (images.length) await mkdir(join(dirname(path), figures), { recursive: true });
    for (const image of images) await writeFile(join(dirname(path), image.path), image.svg);
    await writeFile(path, markdown);
    return images.length;
  }

  private async offerToOpen(target: vscode.Uri, format: ReportFormat): Promise<void> {
    const open = format === 'html' ? vscode.l10n.t('Open in Browser') : vscode.l10n.t('Open Preview');
    const reveal = vscode.l10n.t('Reveal');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('Saved the report as {0}.', basename(target.fsPath)), open, reveal);
    if (choice === open) {
      if (format === 'html') await vscode.env.openExternal(target);
      else await vscode.commands.executeCommand('markdown.showPreview', target);
    } else if (choice === reveal) {
      await vscode.commands.executeCommand('revealFileInOS', target);
    }
  }
}
