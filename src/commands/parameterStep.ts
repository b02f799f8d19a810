import * as vscode from 'vscode';
import type { QuickInputs, StepInfo } from '../common/multiStepInput';
import { isBack } from '../common/multiStepInput';
import { parseParam, type ParamKey, type ParamSpec, type ParamValues } from '../common/trainingParams';

interface ParamItem extends vscode.QuickPickItem {
  key: ParamKey | 'done';
}

/**
 * A list of parameters with their current values; picking one asks for a new value (validated), "Continue" accepts
 * them all. Back from the list goes to the previous step; Back from a value returns to the list.
 */
export async function editParameters(
  inputs: QuickInputs,
  position: StepInfo,
  specs: readonly ParamSpec[],
  values: ParamValues,
  continueLabel: string,
): Promise<void> {
  for (;;) {
    const items: ParamItem[] = [
      { key: 'done', label: `$(check) ${continueLabel}`, description: 'keep the values below' },
      { key: 'done', label: '', kind: vscode.QuickPickItemKind.Separator },
      ...specs.map((spec) => ({ key: spec.key, label: spec.key, description: `= ${values[spec.key]}`, detail: spec.help })),
    ];
    const picked = await inputs.pick({ ...position, placeholder: 'Press Enter to continue, or pick a parameter to change it', items });
    if (picked.key === 'done') return;
    const key = picked.key;
    try {
      const text = await inputs.input({
        ...position,
        prompt: `${key}: ${specs.find((spec) => spec.key === key)?.help ?? ''}`,
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
