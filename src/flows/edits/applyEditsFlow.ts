import { XModelsApiError, type XModelsClient } from '../../client';
import type { ModelInfo, PreviewEditsResult, RefitData, RefitResult } from '../../contract';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import type { Prompter } from '../../prompts/prompter';
import { parseEditsFile } from './editsFile';
import { editsReportMarkdown, editsToSend, fitting, metricsText, type EditsApplication } from './editsReport';
import { mapEdits, type MappedEdit } from './mapEdits';
import { pickModelVersion, type ModelAndVersion } from './pickVersion';

export interface ApplyEditsDeps {
  readonly prompter: Prompter;
  readonly models: Pick<XModelsClient['models'], 'listTeamModels' | 'listModelVersions' | 'getModelProfile' | 'previewEdits' | 'refitModel'>;
  /** Shows the report (Markdown) before the user decides whether to save. */
  showReport(markdown: string): Promise<void>;
  /** Runs a call to the service under a cancellable progress notification titled `title`. */
  underProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

export interface ApplyEditsOutcome extends EditsApplication {
  /** The new version saved with the edits that fit; absent when none fits or the user did not save. */
  saved?: RefitResult;
}

/**
 * "Apply Edits from File…": puts the edits of an edits file on the bins of `target` (asked for, model then version,
 * when not given) by their recorded values, previews those that fit on the service (an edit it refuses joins those
 * that do not fit, with its reason), shows the report of every edit, and on confirmation saves the ones that fit as a
 * new version. Resolves undefined when a prompt was dismissed.
 */
export async function applyEditsFile(deps: ApplyEditsDeps, fileName: string, text: string, target?: ModelAndVersion): Promise<ApplyEditsOutcome | undefined> {
  const file = parseEditsFile(text, fileName);
  if (file.edits.length === 0) throw new UserFacingError(l10n.t('{0} lists no edits. Export the edits of a version saved with hand edits.', fileName));
  const chosen =
    target ??
    (await pickModelVersion(deps.prompter, deps.models, {
      title: l10n.t('Apply Edits from {0}', fileName),
      modelPlaceholder: l10n.t('The model to apply the edits of {0} v{1} to', file.source.model_name, file.source.version_number),
      versionPlaceholder: l10n.t('The version whose steps to edit (a new version is saved)'),
      preferModel: (model: ModelInfo) => model.model_id === file.source.model_id || model.model_name === file.source.model_name,
      offer: { keep: (version) => version.dataset_id !== null, none: (model) => l10n.t('No version of {0} has a stored dataset to check edits on. Train a version from a CSV first.', model.model_name) },
    }));
  if (!chosen) return undefined;
  const { model, version } = chosen;
  if (!version.dataset_id) {
    throw new UserFacingError(l10n.t('v{0} of {1} has no stored dataset, so edits cannot be checked or saved on it. Train a new version from a CSV instead.', version.version_number, model.model_name));
  }
  const targetName = `v${version.version_number}`;
  const rows: RefitData = { dataset_id: version.dataset_id, target_column: model.target_name };
  const { mapped, preview } = await deps.underProgress(l10n.t('Previewing the edits of {0} on {1} v{2}', fileName, model.model_name, version.version_number), async (signal) => {
    const mapped = mapEdits(file, await deps.models.getModelProfile(version.version_id, { signal }), targetName);
    return { mapped, preview: await previewFitting(deps, version.version_id, rows, mapped, signal) };
  });
  const application: EditsApplication = { fileName, file, model, version, mapped, preview };
  await deps.showReport(editsReportMarkdown(application));
  const fit = fitting(mapped);
  if (fit.length === 0) return application;
  const misfits = mapped.length - fit.length;
  const metrics = preview && metricsText(preview);
  const saveIt = await deps.prompter.confirm({
    id: 'save',
    message: l10n.t('Save {0} of the {1} edits of {2} as a new version of {3}?', fit.length, mapped.length, fileName, model.model_name),
    detail: [
      misfits ? l10n.t('{0} do not fit {1}: the report says why.', misfits, targetName) : l10n.t('Every edit fits {0}.', targetName),
      ...(metrics ? [l10n.t('With them: {0}.', metrics)] : []),
    ].join(' '),
    action: l10n.t('Save as New Version'),
  });
  if (!saveIt) return application;
  const saved = await deps.underProgress(l10n.t('Saving the edits of {0} on {1} v{2}', fileName, model.model_name, version.version_number), (signal) =>
    deps.models.refitModel(version.version_id, { edits: editsToSend(mapped), ...rows }, { signal }),
  );
  return { ...application, saved };
}

/**
 * Previews the edits that fit; when the service refuses one (a 422 naming `edits.i`), that edit joins those that do
 * not fit, with the service's reason, and the rest are previewed again. Undefined when none is left.
 */
async function previewFitting(deps: ApplyEditsDeps, versionId: string, rows: RefitData, mapped: MappedEdit[], signal: AbortSignal): Promise<PreviewEditsResult | undefined> {
  for (;;) {
    const owners = fitting(mapped).flatMap((m) => m.edits.map(() => m));
    if (owners.length === 0) return undefined;
    try {
      return await deps.models.previewEdits(versionId, { edits: editsToSend(mapped), ...rows }, { signal });
    } catch (error) {
      const refused = refusedEdit(error);
      const owner = refused === undefined ? undefined : owners[refused.index];
      if (!owner) throw error;
      mapped[owner.index] = { ...owner, edits: [], notes: [], problem: l10n.t('the service refuses it ({0})', refused?.reason ?? '') };
    }
  }
}

/** The edit a 422 names (`edits.3.op`) and its reason without the edit's index, which counts the edits sent. */
function refusedEdit(error: unknown): { index: number; reason: string } | undefined {
  if (!(error instanceof XModelsApiError) || error.status !== 422) return undefined;
  const match = /^edits\.(\d+)(?:\.|$)/.exec(error.fields[0]?.path ?? '');
  if (!match) return undefined;
  return { index: Number(match[1]), reason: error.detail.replace(/^edits\[\d+\]\./, '').replace(/\.$/, '') };
}
