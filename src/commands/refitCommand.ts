import * as vscode from 'vscode';
import type { RefitRequest, RefitResult } from '../contract';
import { signalFromToken } from '../common/cancellation';
import { UserFacingError } from '../common/errors';
import { runSteps, type QuickInputs, type Step } from '../common/multiStepInput';
import { changedParams, defaultParams, methodOfVersion, paramsFromVersion, specFor, specsForModel, type ParamValues } from '../common/trainingParams';
import { headlineMetric, modelTypeLabel } from '../tree/nodeText';
import { asVersionRef, requireRef, resolveVersion, type CommandContext } from './commandContext';
import { editParameters } from './parameterStep';
import { offerPanels } from './trainCommands';

type RefitScope = 'all' | 'chosen' | 'perFeature';

interface RefitPlan {
  scope: RefitScope;
  features: string[];
  /** Parameters for `all` and `chosen` (prefilled with the version's values). */
  params: Required<ParamValues>;
  /** Parameters per feature for `perFeature`. */
  perFeature: Map<string, ParamValues>;
}

interface FeatureItem extends vscode.QuickPickItem {
  feature: string;
}

/** `xmodels.models.refit`: new parameters for all or some features of a version, which creates a new version. */
export class RefitCommand {
  constructor(private readonly ctx: CommandContext) {}

  async refit(arg?: unknown): Promise<RefitResult> {
    const ref = requireRef(asVersionRef(arg), 'model version');
    const client = await this.ctx.getClient();
    const { model, version } = await resolveVersion(client, ref);
    if (!version.dataset_id) {
      throw new UserFacingError(vscode.l10n.t('v{0} of {1} has no stored dataset, so it cannot be refit. Train a new version from a CSV instead.', version.version_number, model.model_name));
    }
    const modelType = modelTypeLabel(model.model_type);
    const featureInfo = await client.models.getFeatureInfo(version.version_id);
    const features = [...featureInfo.features].sort((a, b) => b.importance - a.importance);
    const current = paramsFromVersion(version.parameters, defaultParams(this.ctx.settings.current.training));
    const plan: RefitPlan = { scope: 'all', features: [], params: { ...current }, perFeature: new Map() };
    const title = vscode.l10n.t('Refit {0} v{1}', model.model_name, version.version_number);
    const specs = specsForModel(modelType, 'feature', methodOfVersion(version.parameters));

    const paramsStep = async (inputs: QuickInputs): Promise<void> => {
      const scopeText = plan.scope === 'all' ? 'all features' : `${plan.features.length} feature(s)`;
      await editParameters(inputs, { title: vscode.l10n.t('{0}: parameters for {1}', title, scopeText), step: plan.scope === 'all' ? 2 : 3, totalSteps: plan.scope === 'all' ? 2 : 3 }, [...specs, specFor('test_size')], plan.params, vscode.l10n.t('Refit with these parameters'));
    };
    const perFeatureStep = (index: number): Step => async (inputs) => {
      const feature = plan.features[index];
      const values = plan.perFeature.get(feature) ?? { ...pick(current, specs.map((spec) => spec.key)) };
      plan.perFeature.set(feature, values);
      await editParameters(inputs, { title: vscode.l10n.t('{0}: parameters for {1}', title, feature), step: 3 + index, totalSteps: 2 + plan.features.length }, specs, values, index + 1 < plan.features.length ? vscode.l10n.t('Next feature') : vscode.l10n.t('Refit with these parameters'));
      return index + 1 < plan.features.length ? perFeatureStep(index + 1) : undefined;
    };
    const featuresStep: Step = async (inputs) => {
      const items: FeatureItem[] = features.map((feature) => ({
        feature: feature.feature,
        label: feature.feature,
        description: `${feature.type} · importance ${feature.importance.toFixed(3)}`,
      }));
      const picked = await inputs.pickMany({
        title,
        step: 2,
        totalSteps: plan.scope === 'perFeature' ? 2 + Math.max(plan.features.length, 1) : 3,
        placeholder: vscode.l10n.t('Features to refit'),
        items,
        selected: items.filter((item) => plan.features.includes(item.feature)),
      });
      if (picked.length === 0) throw new UserFacingError(vscode.l10n.t('Choose at least one feature to refit.'));
      plan.features = picked.map((item) => item.feature);
      return plan.scope === 'perFeature' ? perFeatureStep(0) : paramsStep;
    };
    const scopeStep: Step = async (inputs) => {
      const items: (vscode.QuickPickItem & { scope: RefitScope })[] = [
        { scope: 'all', label: vscode.l10n.t('All features'), description: vscode.l10n.t('same parameters for every feature') },
        { scope: 'chosen', label: vscode.l10n.t('Chosen features'), description: vscode.l10n.t('same parameters for the features you pick') },
        { scope: 'perFeature', label: vscode.l10n.t('Per-feature parameters'), description: vscode.l10n.t('different parameters for each feature you pick') },
      ];
      const picked = await inputs.pick({ title, step: 1, totalSteps: 3, placeholder: vscode.l10n.t('What should the refit change?'), items, selected: items.filter((item) => item.scope === plan.scope) });
      plan.scope = picked.scope;
      return plan.scope === 'all' ? paramsStep : featuresStep;
    };
    await runSteps(this.ctx.inputs, scopeStep);

    const request: RefitRequest = { dataset_id: version.dataset_id, target_column: model.target_name, test_size: plan.params.test_size };
    if (plan.scope === 'perFeature') {
      request.feature_params = Object.fromEntries(plan.features.map((feature) => [feature, plan.perFeature.get(feature) ?? {}]));
    } else {
      if (plan.scope === 'chosen') request.features = plan.features;
      const { test_size: _testSize, seed: _seed, ...changed } = changedParams(plan.params, current);
      Object.assign(request, changed);
    }
    this.ctx.log.info(`Refitting ${model.model_name} v${version.version_number} (${plan.scope})`);
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (_progress, token) => this.ctx.tree.whileBusy(`${title}…`, () => client.models.refitModel(version.version_id, request, { signal: signalFromToken(token) })),
    );
    await this.ctx.revealModel(result.model_id, result.version_id);
    const before = headlineMetric(version.test_metrics);
    const after = headlineMetric(result.test_metrics) ?? 'no test metric';
    offerPanels(vscode.l10n.t('Refit {0}: {1}{2}.', model.model_name, after, before ? vscode.l10n.t(' (was {0})', before) : ''), result, model.model_name);
    return result;
  }
}

function pick(values: Required<ParamValues>, keys: (keyof ParamValues)[]): ParamValues {
  return Object.fromEntries(keys.map((key) => [key, values[key]]));
}
