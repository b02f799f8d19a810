import * as vscode from 'vscode';
import { DEFAULT_FIT_METHOD, type FitMethod } from '../engine/params/table';
import type { QuickInputs, StepInfo } from '../common/multiStepInput';
import { isBack } from '../common/multiStepInput';
import { parseParam, type ParamKey, type ParamSpec, type ParamValues } from '../common/trainingParams';

interface ParamItem extends vscode.QuickPickItem {
  key: ParamKey | 'done' | 'method';
}

interface MethodItem extends vscode.QuickPickItem {
  method: FitMethod;
}

/** The fit methods to pick from; a function so the labels are translated when asked, not when the module loads. */
function methodItems(): MethodItem[] {
  const items: MethodItem[] = [
    { method: 'boosted', label: 'boosted', detail: vscode.l10n.t('Fits every feature’s steps jointly (cyclic gradient boosting with early stopping and bagging).') },
    { method: 'xplainable', label: 'xplainable', description: vscode.l10n.t('the reference algorithm'), detail: vscode.l10n.t('Fits each feature’s tree to the target on its own, with tree and activation parameters.') },
  ];
  return items.map((item) => (item.method === DEFAULT_FIT_METHOD ? { ...item, description: vscode.l10n.t('the default') } : item));
}

/**
 * A list of parameters with their current values; picking one asks for a new value (validated), "Continue" accepts
 * them all. With `fit`, the list starts with the fit method: picking it offers the methods, and `specs` lists the
 * parameters of the chosen one. Back from the list goes to the previous step; Back from a value returns to the list.
 */
export async function editParameters(
  inputs: QuickInputs,
  position: StepInfo,
  specs: readonly ParamSpec[] | ((method: FitMethod) => readonly ParamSpec[]),
  values: ParamValues,
  continueLabel: string,
  fit?: { method: FitMethod },
): Promise<void> {
  for (;;) {
    const shown = typeof specs === 'function' ? specs(fit?.method ?? DEFAULT_FIT_METHOD) : specs;
    const items: ParamItem[] = [
      { key: 'done', label: `$(check) ${continueLabel}`, description: vscode.l10n.t('keep the values below') },
      { key: 'done', label: '', kind: vscode.QuickPickItemKind.Separator },
      ...(fit ? [{ key: 'method' as const, label: 'method', description: `= ${fit.method}`, detail: vscode.l10n.t('How the per-feature steps are fitted: boosted or xplainable.') }] : []),
      ...shown.map((spec) => ({ key: spec.key, label: spec.key, description: `= ${values[spec.key]}`, detail: spec.help })),
    ];
    const picked = await inputs.pick({ ...position, placeholder: vscode.l10n.t('Press Enter to continue, or pick a parameter to change it'), items });
    if (picked.key === 'done') return;
    try {
      if (picked.key === 'method') {
        if (fit) {
          const items = methodItems();
          fit.method = (await inputs.pick({ ...position, placeholder: vscode.l10n.t('Fit method'), items, selected: items.filter((item) => item.method === fit.method) })).method;
        }
        continue;
      }
      const key = picked.key;
      const text = await inputs.input({
        ...position,
        prompt: `${key}: ${shown.find((spec) => spec.key === key)?.help ?? ''}`,
        value: String(values[key] ?? ''),
        validate: (value) => {
          const parsed = parseParam(key, value);
          return 'problem' in parsed ? parsed.problem : undefined;
        },
      });
      const parsed = parseParam(key, text);
      if ('value' in parsed) values[key] = parsed.value;
    } catch (error) {
      if (!isBack(error)) throw error;
    }
  }
}
