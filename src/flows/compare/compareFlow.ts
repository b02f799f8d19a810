import type { ModelInfo, ModelVersion } from '../../contract';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import type { CompareArgs } from '../../views/protocol';
import { answered, type PickItem, type Prompter } from '../../prompts/prompter';
import { DONE, runSteps, stepPosition, type Step } from '../../prompts/steps';
import { shortDate, versionDescription } from '../../tree/nodeText';

/** The client calls the flow makes (the client's `models`). */
export interface CompareSource {
  listTeamModels(): Promise<ModelInfo[]>;
  listModelVersions(modelId: string): Promise<ModelVersion[]>;
}

/** The version the comparison starts from (a version in the Models view); absent from the Command Palette. */
export interface CompareStart {
  modelId: string;
  versionId: string;
  model?: ModelInfo;
}

const versionItem = (version: ModelVersion): PickItem<ModelVersion> => ({
  value: version,
  label: `v${version.version_number}`,
  description: versionDescription(version),
  ...(version.edits?.length ? { detail: l10n.t('{0} hand edits', version.edits.length) } : {}),
});

/**
 * Asks for the two versions to compare: from a version, only the other one (newest first); without one, the model
 * (among those with two versions or more), the version and the other one. Undefined when dismissed.
 */
export async function askVersionsToCompare(prompter: Prompter, source: CompareSource, start?: CompareStart): Promise<CompareArgs | undefined> {
  const title = l10n.t('Compare versions');
  const total = start ? 1 : 3;
  let model = start?.model;
  let first = start?.versionId;
  let second: string | undefined;

  const versionsOf = async (modelId: string): Promise<ModelVersion[]> => {
    const versions = [...(await source.listModelVersions(modelId))].sort((a, b) => b.version_number - a.version_number);
    if (versions.length < 2) throw new UserFacingError(l10n.t('This model has one version: train or refit another to compare them.'));
    return versions;
  };
  const otherStep = (modelId: string, versionId: string): Step => async () => {
    const others = (await versionsOf(modelId)).filter((v) => v.version_id !== versionId);
    const picked = await prompter.pickOne({ id: 'otherVersion', position: stepPosition(title, total, total), placeholder: l10n.t('Compare with version'), items: others.map(versionItem) });
    if (!answered(picked)) return picked;
    second = picked.version_id;
    return DONE;
  };
  const versionStep = (modelId: string): Step => async () => {
    const picked = await prompter.pickOne({ id: 'version', position: stepPosition(title, 2, total), placeholder: l10n.t('Version to compare'), items: (await versionsOf(modelId)).map(versionItem) });
    if (!answered(picked)) return picked;
    first = picked.version_id;
    return otherStep(modelId, picked.version_id);
  };
  const modelStep: Step = async () => {
    const models = (await source.listTeamModels()).filter((m) => m.number_of_versions > 1);
    if (models.length === 0) throw new UserFacingError(l10n.t('No model has two versions yet: refit or train a new version of one to compare them.'));
    const items = models.map((m): PickItem<ModelInfo> => ({ value: m, label: m.model_name, description: l10n.t('{0} versions · {1}', m.number_of_versions, shortDate(m.created)) }));
    const picked = await prompter.pickOne({ id: 'model', position: stepPosition(title, 1, total), placeholder: l10n.t('Model whose versions to compare'), items });
    if (!answered(picked)) return picked;
    model = picked;
    return versionStep(picked.model_id);
  };

  if (!(await runSteps(start ? otherStep(start.modelId, start.versionId) : modelStep))) return undefined;
  const modelId = start?.modelId ?? model?.model_id;
  if (!modelId || !first || !second) return undefined;
  return { modelId, versionId: first, otherVersionId: second, ...(model ? { modelName: model.model_name } : {}) };
}
