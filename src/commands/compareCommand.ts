import * as vscode from 'vscode';
import type { ModelInfo, ModelVersion } from '../contract';
import { UserFacingError } from '../common/errors';
import type { XModelsServices } from '../common/services';
import { PANEL_COMMANDS, type ShownPanel } from '../panels';
import { answered, type PickItem } from '../prompts/prompter';
import { DONE, runSteps, stepPosition, type Step } from '../prompts/steps';
import { shortDate, versionDescription } from '../tree/nodeText';
import { asVersionRef } from './modelRefs';

const newestFirst = (versions: readonly ModelVersion[]) => [...versions].sort((a, b) => b.version_number - a.version_number);

const versionItem = (version: ModelVersion): PickItem<ModelVersion> => ({
  value: version,
  label: `v${version.version_number}`,
  description: versionDescription(version),
  ...(version.edits?.length ? { detail: vscode.l10n.t('{0} hand edits', version.edits.length) } : {}),
});

/**
 * `xmodels.models.compare`: asks for another version of the same model and opens the comparison of the two. From
 * a version in the Models view it asks only for the other version; from the Command Palette, for the model and
 * both versions.
 */
export class CompareCommand {
  constructor(private readonly services: XModelsServices) {}

  async compare(arg?: unknown): Promise<ShownPanel | undefined> {
    const client = await this.services.getClient();
    const prompter = this.services.prompter;
    const fromVersion = asVersionRef(arg);
    const title = vscode.l10n.t('Compare versions');
    const total = fromVersion ? 1 : 3;
    let model: ModelInfo | undefined = fromVersion?.model;
    let first: ModelVersion | undefined = fromVersion?.version;
    let second: ModelVersion | undefined;

    const versionsOf = async (modelId: string): Promise<ModelVersion[]> => {
      const versions = newestFirst(await client.models.listModelVersions(modelId));
      if (versions.length < 2) throw new UserFacingError(vscode.l10n.t('This model has one version: train or refit another to compare them.'));
      return versions;
    };
    const otherStep = (modelId: string, versionId: string): Step => async () => {
      const others = (await versionsOf(modelId)).filter((v) => v.version_id !== versionId);
      const picked = await prompter.pickOne({ id: 'otherVersion', position: stepPosition(title, total, total), placeholder: vscode.l10n.t('Compare with version'), items: others.map(versionItem) });
      if (!answered(picked)) return picked;
      second = picked;
      return DONE;
    };
    const versionStep = (modelId: string): Step => async () => {
      const versions = await versionsOf(modelId);
      const picked = await prompter.pickOne({ id: 'version', position: stepPosition(title, 2, total), placeholder: vscode.l10n.t('Version to compare'), items: versions.map(versionItem) });
      if (!answered(picked)) return picked;
      first = picked;
      return otherStep(modelId, picked.version_id);
    };
    const modelStep: Step = async () => {
      const models = (await client.models.listTeamModels()).filter((m) => m.number_of_versions > 1);
      if (models.length === 0) throw new UserFacingError(vscode.l10n.t('No model has two versions yet: refit or train a new version of one to compare them.'));
      const items = models.map((m): PickItem<ModelInfo> => ({ value: m, label: m.model_name, description: vscode.l10n.t('{0} versions · {1}', m.number_of_versions, shortDate(m.created)) }));
      const picked = await prompter.pickOne({ id: 'model', position: stepPosition(title, 1, total), placeholder: vscode.l10n.t('Model whose versions to compare'), items });
      if (!answered(picked)) return picked;
      model = picked;
      return versionStep(picked.model_id);
    };

    const start = fromVersion ? otherStep(fromVersion.modelId, fromVersion.versionId) : modelStep;
    if (!(await runSteps(start)) || !second) return undefined;
    const modelId = fromVersion?.modelId ?? model?.model_id;
    const versionId = fromVersion?.versionId ?? first?.version_id;
    if (!modelId || !versionId) return undefined;
    return vscode.commands.executeCommand<ShownPanel>(PANEL_COMMANDS.compare, {
      modelId,
      versionId,
      otherVersionId: second.version_id,
      ...(model ? { modelName: model.model_name } : {}),
    });
  }
}
