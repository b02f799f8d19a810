import type { FeatureInfoEntry, ModelInfo, ModelVersion, RefitRequest } from '../../contract';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import type { Settings } from '../../common/settingsSchema';
import { changedParams, defaultParams, methodOfVersion, paramsFromVersion, specFor, specsForModel, type ParamValues } from '../../views/trainingParams';
import { answered, type PickItem, type Prompter } from '../../prompts/prompter';
import { DONE, runSteps, stepPosition, type Step } from '../../prompts/steps';
import { modelTypeLabel } from '../../tree/nodeText';
import { editParameters } from '../parameterStep';

export type RefitScope = 'all' | 'chosen' | 'perFeature';

/** The version to refit, with its features (from the service's feature info). */
export interface RefitSubject {
  readonly model: ModelInfo;
  /** A version with a stored dataset. */
  readonly version: ModelVersion & { dataset_id: string };
  readonly features: readonly Pick<FeatureInfoEntry, 'feature' | 'type' | 'importance'>[];
}

export function refitTitle({ model, version }: Pick<RefitSubject, 'model' | 'version'>): string {
  return l10n.t('Refit {0} v{1}', model.model_name, version.version_number);
}

/**
 * Asks what the refit changes (all features, chosen ones, or each chosen one separately), then the parameters,
 * prefilled with the version's values; Back everywhere. Resolves to the request, or undefined when dismissed.
 */
export async function askRefit(prompter: Prompter, subject: RefitSubject, training: Settings['training']): Promise<{ scope: RefitScope; request: RefitRequest } | undefined> {
  const { model, version } = subject;
  const features = [...subject.features].sort((a, b) => b.importance - a.importance);
  const current = paramsFromVersion(version.parameters, defaultParams(training));
  const plan = { scope: 'all' as RefitScope, features: [] as string[], params: { ...current }, perFeature: new Map<string, ParamValues>() };
  const title = refitTitle(subject);
  const specs = specsForModel(modelTypeLabel(model.model_type), 'feature', methodOfVersion(version.parameters));

  const paramsStep: Step = () => {
    const scopeText = plan.scope === 'all' ? l10n.t('all features') : l10n.t('{0} feature(s)', plan.features.length);
    const last = plan.scope === 'all' ? 2 : 3;
    return editParameters(prompter, stepPosition(l10n.t('{0}: parameters for {1}', title, scopeText), last, last), [...specs, specFor('test_size')], plan.params, l10n.t('Refit with these parameters'));
  };
  const perFeatureStep = (index: number): Step => async () => {
    const feature = plan.features[index];
    const values = plan.perFeature.get(feature) ?? { ...only(current, specs.map((spec) => spec.key)) };
    plan.perFeature.set(feature, values);
    const more = index + 1 < plan.features.length;
    const outcome = await editParameters(prompter, stepPosition(l10n.t('{0}: parameters for {1}', title, feature), 3 + index, 2 + plan.features.length), specs, values, more ? l10n.t('Next feature') : l10n.t('Refit with these parameters'));
    return outcome === DONE && more ? perFeatureStep(index + 1) : outcome;
  };
  const featuresStep: Step = async () => {
    const items: PickItem<string>[] = features.map((feature) => ({
      value: feature.feature,
      label: feature.feature,
      description: l10n.t('{0} · importance {1}', feature.type, feature.importance.toFixed(3)),
      picked: plan.features.includes(feature.feature),
    }));
    const picked = await prompter.pickMany({
      id: 'features',
      position: stepPosition(title, 2, plan.scope === 'perFeature' ? 2 + Math.max(plan.features.length, 1) : 3),
      placeholder: l10n.t('Features to refit'),
      items,
    });
    if (!answered(picked)) return picked;
    if (picked.length === 0) throw new UserFacingError(l10n.t('Choose at least one feature to refit.'));
    plan.features = picked;
    return plan.scope === 'perFeature' ? perFeatureStep(0) : paramsStep;
  };
  const scopeStep: Step = async () => {
    const items: PickItem<RefitScope>[] = [
      { value: 'all', label: l10n.t('All features'), description: l10n.t('same parameters for every feature') },
      { value: 'chosen', label: l10n.t('Chosen features'), description: l10n.t('same parameters for the features you pick') },
      { value: 'perFeature', label: l10n.t('Per-feature parameters'), description: l10n.t('different parameters for each feature you pick') },
    ];
    const picked = await prompter.pickOne({
      id: 'scope',
      position: stepPosition(title, 1, 3),
      placeholder: l10n.t('What should the refit change?'),
      items: items.map((item) => ({ ...item, picked: item.value === plan.scope })),
    });
    if (!answered(picked)) return picked;
    plan.scope = picked;
    return plan.scope === 'all' ? paramsStep : featuresStep;
  };
  if (!(await runSteps(scopeStep))) return undefined;

  const request: RefitRequest = { dataset_id: version.dataset_id, target_column: model.target_name, test_size: plan.params.test_size };
  if (plan.scope === 'perFeature') {
    request.feature_params = Object.fromEntries(plan.features.map((feature) => [feature, plan.perFeature.get(feature) ?? {}]));
  } else {
    if (plan.scope === 'chosen') request.features = plan.features;
    const { test_size: _testSize, seed: _seed, ...changed } = changedParams(plan.params, current);
    Object.assign(request, changed);
  }
  return { scope: plan.scope, request };
}

function only(values: Required<ParamValues>, keys: (keyof ParamValues)[]): ParamValues {
  return Object.fromEntries(keys.map((key) => [key, values[key]]));
}
