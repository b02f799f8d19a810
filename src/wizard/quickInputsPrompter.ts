import * as vscode from 'vscode';
import { isCancellation } from '../common/errors';
import { isBack, type QuickInputs, type StepInfo } from '../common/multiStepInput';
import {
  BACK, type Answer, type InputRequest, type PickItem, type PickRequest, type PromptPosition, type WizardPrompter,
} from './prompter';

function stepInfo(position: PromptPosition): StepInfo {
  return { title: position.title, step: position.step, totalSteps: position.totalSteps };
}

/** Maps the shared prompts' Back and dismissal (thrown) to the wizard's answers (returned). */
async function answerOf<T>(ask: () => Promise<T>): Promise<Answer<T>> {
  try {
    return await ask();
  } catch (error) {
    if (isBack(error)) return BACK;
    if (isCancellation(error)) return undefined;
    throw error;
  }
}

/**
 * The wizard's prompts on VS Code's QuickPick and InputBox (through the extension's shared multi-step prompts).
 * Items that are still loading show a busy QuickPick with the step's title until they arrive.
 */
export class QuickInputsPrompter implements WizardPrompter {
  constructor(private readonly inputs: QuickInputs) {}

  async pickOne<T>(request: PickRequest<T>): Promise<Answer<T>> {
    const items = await this.itemsOf(request);
    if (items === undefined || items === BACK) return items;
    const picked = await answerOf(() => this.inputs.pick({
      ...stepInfo(request.position), placeholder: request.placeholder, items, selected: items.filter((item) => item.picked),
    }));
    return picked === undefined || picked === BACK ? picked : picked.value;
  }

  async pickMany<T>(request: PickRequest<T>): Promise<Answer<T[]>> {
    const items = await this.itemsOf(request);
    if (items === undefined || items === BACK) return items;
    const picked = await answerOf(() => this.inputs.pickMany({
      ...stepInfo(request.position), placeholder: request.placeholder, items, selected: items.filter((item) => item.picked),
    }));
    return picked === undefined || picked === BACK ? picked : picked.map((item) => item.value);
  }

  input(request: InputRequest): Promise<Answer<string>> {
    return answerOf(() => this.inputs.input({
      ...stepInfo(request.position), prompt: request.prompt, value: request.value, validate: request.validate,
    }));
  }

  async pickCsvFile(title: string): Promise<string | undefined> {
    const uri = await answerOf(() => this.inputs.openCsv(title));
    return uri === undefined || uri === BACK ? undefined : uri.fsPath;
  }

  private async itemsOf<T>(request: PickRequest<T>): Promise<Answer<readonly PickItem<T>[]>> {
    if (!(request.items instanceof Promise)) return request.items;
    const loading = vscode.window.createQuickPick();
    loading.title = request.position.title;
    loading.step = request.position.step;
    loading.totalSteps = request.position.totalSteps;
    loading.placeholder = request.placeholder;
    loading.busy = true;
    loading.enabled = false;
    loading.ignoreFocusOut = true;
    loading.buttons = request.position.canGoBack ? [vscode.QuickInputButtons.Back] : [];
    const interrupted = new Promise<Answer<never>>((resolve) => {
      loading.onDidHide(() => resolve(undefined));
      loading.onDidTriggerButton(() => resolve(BACK));
    });
    loading.show();
    try {
      return await Promise.race([request.items, interrupted]);
    } finally {
      loading.dispose();
    }
  }
}
