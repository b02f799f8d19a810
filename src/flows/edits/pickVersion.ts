import type { XModelsClient } from '../../client';
import type { ModelInfo, ModelVersion } from '../../contract';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import { answered, type PickItem, type Prompter } from '../../prompts/prompter';
import { DONE, runSteps, stepPosition, type Step } from '../../prompts/steps';
import { shortDate, versionDescription } from '../../tree/nodeText';

/** A version with its model. */
export interface ModelAndVersion {
  model: ModelInfo;
  version: ModelVersion;
}

export interface VersionChoice {
  title: string;
  modelPlaceholder: string;
  versionPlaceholder: string;
  /** The versions offered (all by default); `none` says why a model has none to offer. */
  offer?: { keep(version: ModelVersion): boolean; none(model: ModelInfo): string };
  /** The model shown first and picked by default. */
  preferModel?: (model: ModelInfo) => boolean;
  /** Describes a version row; `versionDescription` by default. */
  describe?: (version: ModelVersion) => string;
}

/** Asks for a model, then one of its versions (newest first, the newest picked); undefined when dismissed. */
export async function pickModelVersion(
  prompter: Prompter,
  models: Pick<XModelsClient['models'], 'listTeamModels' | 'listModelVersions'>,
  choice: VersionChoice,
): Promise<ModelAndVersion | undefined> {
  let picked: ModelAndVersion | undefined;
  const versionStep = (model: ModelInfo): Step => async () => {
    const all = [...(await models.listModelVersions(model.model_id))].sort((a, b) => b.version_number - a.version_number);
    const versions = choice.offer ? all.filter(choice.offer.keep) : all;
    if (versions.length === 0) throw new UserFacingError(choice.offer?.none(model) ?? l10n.t('{0} has no versions.', model.model_name));
    const items = versions.map((version, index): PickItem<ModelVersion> => ({
      value: version,
      label: `v${version.version_number}`,
      description: (choice.describe ?? versionDescription)(version),
      picked: index === 0,
    }));
    const version = await prompter.pickOne({ id: 'version', position: stepPosition(choice.title, 2, 2), placeholder: choice.versionPlaceholder, items });
    if (!answered(version)) return version;
    picked = { model, version };
    return DONE;
  };
  const modelStep: Step = async () => {
    const all = await models.listTeamModels();
    if (all.length === 0) throw new UserFacingError(l10n.t('There are no models yet: train one first.'));
    const preferred = choice.preferModel ?? (() => false);
    const ordered = [...all.filter(preferred), ...all.filter((m) => !preferred(m))];
    const items = ordered.map((model, index): PickItem<ModelInfo> => ({
      value: model,
      label: model.model_name,
      description: `${model.target_name} · ${shortDate(model.created)}`,
      picked: index === 0 && preferred(model),
    }));
    const model = await prompter.pickOne({ id: 'model', position: stepPosition(choice.title, 1, 2), placeholder: choice.modelPlaceholder, items });
    if (!answered(model)) return model;
    return versionStep(model);
  };
  return (await runSteps(modelStep)) ? picked : undefined;
}
