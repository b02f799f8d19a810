import * as vscode from 'vscode';
import { describeError, UserFacingError } from '../common/errors';
import { scoringTablesFromPayload, toPython, toSql } from '../modelExport';
import { panelSubject, subjectTitle } from '../panels/panelArgs';
import type { ProfileArgs } from '../views/protocol';
import type { XModelsServices } from '../common/services';

export type ExportLanguage = 'python' | 'sql';

const GENERATORS = { python: toPython, sql: toSql } as const;

/** What an export needs from its argument: the version, and the names its title uses. */
function exportTarget(arg: unknown, activeProfile: ProfileArgs | undefined): { versionId: string; title: string; preprocessed: boolean } | undefined {
  const source = typeof arg === 'object' && arg !== null && typeof (arg as { versionId?: unknown }).versionId === 'string' ? arg : activeProfile;
  if (!source) return undefined;
  const { versionId, version } = source as { versionId: string; version?: { linked_preprocessor?: unknown } };
  const title = subjectTitle(panelSubject(source)) || `version ${versionId}`;
  return { versionId, title, preprocessed: Boolean(version?.linked_preprocessor) };
}

/** "Export as Python / SQL": the version's lookup tables as a new untitled scoring file (never run by the extension). */
export class ExportCommand {
  constructor(
    private readonly ctx: XModelsServices,
    private readonly activeProfile: () => ProfileArgs | undefined,
  ) {}

  async export(language: ExportLanguage, arg?: unknown): Promise<vscode.TextDocument> {
    const target = exportTarget(arg, this.activeProfile());
    if (!target) throw new UserFacingError(vscode.l10n.t('Run this command from a model version or partition in the XModels view, or from its profile.'));
    const client = await this.ctx.getClient();
    const payload = await client.models.getModelPayload(target.versionId).catch((error: unknown) => {
      throw new UserFacingError(
        vscode.l10n.t(
          'Could not read the fitted model of {0}: {1} Exporting needs the local service (XModels: Use Local Service).',
          target.title,
          describeError(error).replace(/\.?$/, '.'),
        ),
      );
    });
    const content = GENERATORS[language](scoringTablesFromPayload(payload, target.title));
    const document = await vscode.workspace.openTextDocument({ language, content });
    await vscode.window.showTextDocument(document, { preview: false });
    this.ctx.log.info(`Exported ${target.title} as ${language === 'python' ? 'Python' : 'SQL'}`);
    if (target.preprocessed) {
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} has a linked preprocessor; the exported code expects columns that are already preprocessed.', target.title));
    }
    return document;
  }
}
