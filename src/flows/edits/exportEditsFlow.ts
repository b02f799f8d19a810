import type { XModelsClient } from '../../client';
import type { ModelVersion } from '../../contract';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import type { Prompter } from '../../prompts/prompter';
import { versionDescription } from '../../tree/nodeText';
import { editsFileName, editsFileText, type EditsFile } from './editsFile';
import { editsFileOf } from './describeEdits';
import { pickModelVersion, type ModelAndVersion } from './pickVersion';

export interface ExportEditsDeps {
  readonly prompter: Prompter;
  readonly models: Pick<XModelsClient['models'], 'listTeamModels' | 'listModelVersions' | 'getModelProfile'>;
}

/** A version's edits written out: the file's suggested name and text. */
export interface ExportedEdits extends ModelAndVersion {
  fileName: string;
  text: string;
  file: EditsFile;
}

const hasEdits = (version: ModelVersion) => (version.edits?.length ?? 0) > 0;
const editCount = (count: number) => (count === 1 ? l10n.t('1 edit') : l10n.t('{0} edits', count));

/**
 * "Export Edits": the hand edits of `source` (asked for, model then version, when not given) as the text of an edits
 * file, each range of bins also given by value as the profile of the version they were made on lists them.
 */
export async function exportEdits(deps: ExportEditsDeps, source?: ModelAndVersion): Promise<ExportedEdits | undefined> {
  const chosen =
    source ??
    (await pickModelVersion(deps.prompter, deps.models, {
      title: l10n.t('Export Edits'),
      modelPlaceholder: l10n.t('The model whose edits to export'),
      versionPlaceholder: l10n.t('A version saved with hand edits'),
      offer: { keep: hasEdits, none: (model) => l10n.t('No version of {0} has hand edits. Edit the steps of a version and save them as a new version, then export that one.', model.model_name) },
      describe: (version) => `${editCount(version.edits?.length ?? 0)} · ${versionDescription(version)}`,
    }));
  if (!chosen) return undefined;
  const { model, version } = chosen;
  if (!hasEdits(version)) {
    throw new UserFacingError(l10n.t('v{0} of {1} has no hand edits to export. Export a version saved with edits (its parent is the version they were made on).', version.version_number, model.model_name));
  }
  const [parent, own] = await Promise.all([
    version.parent_version_id ? parentProfile(deps, version.parent_version_id) : undefined,
    deps.models.getModelProfile(version.version_id),
  ]);
  const file = editsFileOf(model, version, parent ? [parent, own] : [own]);
  return { model, version, file, fileName: editsFileName(model.model_name, version.version_number), text: editsFileText(file) };
}

/** The parent's profile, or undefined when it cannot be read (a version copied without its parent): the version's own bins are the same. */
async function parentProfile(deps: ExportEditsDeps, parentId: string) {
  return deps.models.getModelProfile(parentId).catch((error: unknown) => {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  });
}
