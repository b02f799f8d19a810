import * as vscode from 'vscode';
import type { XModelsClient } from '../client';
import type { ModelInfo, ModelVersion } from '../contract';
import { UserFacingError } from '../common/errors';
import { answered, type PickItem, type Prompter } from '../prompts/prompter';
import { stepPosition, type DONE, type Step } from '../prompts/steps';
import { shortDate, versionDescription } from '../tree/nodeText';
import type { VersionRef } from './modelRefs';

export interface VersionPick {
  title: string;
  /** How many steps the whole flow has: the model is step 1 of them, the version step 2. */
  total: number;
  /** What the model list asks, e.g. "Model to predict with". */
  placeholder: string;
  /** The step after the version, given the version picked. */
  then: (ref: VersionRef) => Step | typeof DONE;
}

/** The first two steps of a command run from the palette: a model of the team, then one of its versions (newest first). */
export function pickVersionSteps(client: XModelsClient, prompter: Prompter, pick: VersionPick): Step {
  const versionStep = (modelId: string): Step => async () => {
    const versions = [...(await client.models.listModelVersions(modelId))].sort((a, b) => b.version_number - a.version_number);
    const items = versions.map((version, index): PickItem<ModelVersion> => ({ value: version, label: `v${version.version_number}`, description: versionDescription(version), picked: index === 0 }));
    if (items.length === 0) throw new UserFacingError(vscode.l10n.t('This model has no versions yet: train one first.'));
    const picked = await prompter.pickOne({ id: 'version', position: stepPosition(pick.title, 2, pick.total), placeholder: vscode.l10n.t('Version'), items });
    if (!answered(picked)) return picked;
    return pick.then({ modelId, versionId: picked.version_id, version: picked });
  };
  return async () => {
    const models = await client.models.listTeamModels();
    if (models.length === 0) throw new UserFacingError(vscode.l10n.t('There are no models yet: train one first.'));
    const items = models.map((model): PickItem<ModelInfo> => ({ value: model, label: model.model_name, description: `${model.target_name} · ${shortDate(model.created)}` }));
    const picked = await prompter.pickOne({ id: 'model', position: stepPosition(pick.title, 1, pick.total), placeholder: pick.placeholder, items });
    if (!answered(picked)) return picked;
    return versionStep(picked.model_id);
  };
}
