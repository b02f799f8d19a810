import { l10n } from '../l10n/l10n';
import { DEFAULT_FIT_METHOD, type FitMethod } from '../engine/params';
import { parseParam, type ParamKey, type ParamSpec, type ParamValues } from '../views/trainingParams';
import { BACK, type PickItem, type PromptPosition, type Prompter } from '../prompts/prompter';
import { DONE } from '../prompts/steps';

type ParamChoice = ParamKey | 'done' | 'method';

/** The fit methods to pick from; a function so the labels are translated when asked, not when the module loads. */
function methodItems(current: FitMethod): PickItem<FitMethod>[] {
  const items: PickItem<FitMethod>[] = [
    { value: 'boosted', label: 'boosted', detail: l10n.t('Fits every feature’s steps jointly (cyclic gradient boosting with early stopping and bagging).') },
    { value: 'xplainable', label: 'xplainable', description: l10n.t('the reference algorithm'), detail: l10n.t('Fits each feature’s tree to the target on its own, with tree and activation parameters.') },
  ];
  return items.map((item) => ({ ...item, ...(item.value === DEFAULT_FIT_METHOD && { description: l10n.t('the default') }), picked: item.value === current }));
}

/**
 * A list of parameters with their current values; picking one asks for a new value (validated), "Continue" accepts
 * them all. With `fit`, the list starts with the fit method: picking it offers the methods, and `specs` lists the
 * parameters of the chosen one. Back from the list goes to the previous step; Back from a value returns to the list.
 */
export async function editParameters(
  prompter: Prompter,
  position: PromptPosition,
  specs: readonly ParamSpec[] | ((method: FitMethod) => readonly ParamSpec[]),
  values: ParamValues,
  continueLabel: string,
  fit?: { method: FitMethod },
): Promise<typeof DONE | typeof BACK | undefined> {
  for (;;) {
    const shown = typeof specs === 'function' ? specs(fit?.method ?? DEFAULT_FIT_METHOD) : specs;
    const items: PickItem<ParamChoice>[] = [
      { value: 'done', label: `$(check) ${continueLabel}`, description: l10n.t('keep the values below') },
      { value: 'done', label: '', separator: true },
      ...(fit ? [{ value: 'method' as const, label: 'method', description: `= ${fit.method}`, detail: l10n.t('How the per-feature steps are fitted: boosted or xplainable.') }] : []),
      ...shown.map((spec) => ({ value: spec.key, label: spec.key, description: `= ${values[spec.key]}`, detail: spec.help })),
    ];
    const picked = await prompter.pickOne({ id: 'parameters', position, placeholder: l10n.t('Press Enter to continue, or pick a parameter to change it'), items });
    if (picked === undefined || picked === BACK) return picked;
    if (picked === 'done') return DONE;
    if (picked === 'method') {
      if (fit) {
        const method = await prompter.pickOne({ id: 'method', position, placeholder: l10n.t('Fit method'), items: methodItems(fit.method) });
        if (method === undefined) return undefined;
        if (method !== BACK) fit.method = method;
      }
      continue;
    }
    const key = picked;
    const text = await prompter.input({
      id: key,
      position,
      prompt: `${key}: ${shown.find((spec) => spec.key === key)?.help ?? ''}`,
      value: String(values[key] ?? ''),
      validate: (value) => {
        const parsed = parseParam(key, value);
        return 'problem' in parsed ? parsed.problem : undefined;
      },
    });
    if (text === undefined) return undefined;
    if (text === BACK) continue;
    const parsed = parseParam(key, text);
    if ('value' in parsed) values[key] = parsed.value;
  }
}
