import * as vscode from 'vscode';
import { CSV_EXTENSIONS } from '../engine/data/csvDialect';

/** Where a prompt sits in a multi-step flow; a Back button appears from step 2 on. */
export interface StepInfo {
  title: string;
  step?: number;
  totalSteps?: number;
}

export interface PickOptions<T extends vscode.QuickPickItem> extends StepInfo {
  placeholder?: string;
  items: readonly T[];
  /** The item the cursor starts on (single pick) or the items ticked at the start (pickMany). */
  selected?: readonly T[];
}

export interface InputOptions extends StepInfo {
  prompt: string;
  value?: string;
  placeholder?: string;
  password?: boolean;
  /** Checked on every keystroke and on accept; returns the problem or undefined. */
  validate?: (value: string) => string | undefined;
  /** Checked on accept only, with the box busy (e.g. a request to the service); returns the problem or undefined. */
  check?: (value: string) => Promise<string | undefined>;
}

/**
 * Every question the extension asks goes through this interface, so a test can answer in place of the user.
 * Each method rejects with `InputFlowAction.back` when the user presses Back and with a CancellationError when the
 * user dismisses the prompt.
 */
export interface QuickInputs {
  pick<T extends vscode.QuickPickItem>(options: PickOptions<T>): Promise<T>;
  pickMany<T extends vscode.QuickPickItem>(options: PickOptions<T>): Promise<T[]>;
  input(options: InputOptions): Promise<string>;
  openCsv(title: string): Promise<vscode.Uri>;
  /** A modal warning with one action; resolves true when the user chose it. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
}

/** Thrown (as a value) by a prompt when the user presses Back; recognised by shape, so test doubles can throw it too. */
export const InputFlowAction = { back: { flow: 'back' as const } };

export function isBack(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { flow?: unknown }).flow === 'back';
}

export type Step = (inputs: QuickInputs) => Promise<Step | void>;

/** Runs steps in order; Back re-runs the previous step, Back on the first step cancels the flow. */
export async function runSteps(inputs: QuickInputs, first: Step): Promise<void> {
  const done: Step[] = [];
  let next: Step | void = first;
  while (next) {
    const current: Step = next;
    try {
      next = await current(inputs);
      done.push(current);
    } catch (error) {
      if (!isBack(error)) throw error;
      next = done.pop();
      if (!next) throw new vscode.CancellationError();
    }
  }
}

/** The real prompts: QuickPick and InputBox with title, "step n of m", Back and validation. */
export class VsCodeQuickInputs implements QuickInputs {
  pick<T extends vscode.QuickPickItem>(options: PickOptions<T>): Promise<T> {
    return this.showPick(options, false).then((items) => items[0]);
  }

  pickMany<T extends vscode.QuickPickItem>(options: PickOptions<T>): Promise<T[]> {
    return this.showPick(options, true);
  }

  private showPick<T extends vscode.QuickPickItem>(options: PickOptions<T>, many: boolean): Promise<T[]> {
    const pick = vscode.window.createQuickPick<T>();
    pick.title = options.title;
    pick.step = options.step;
    pick.totalSteps = options.totalSteps;
    pick.placeholder = options.placeholder;
    pick.canSelectMany = many;
    pick.matchOnDescription = true;
    pick.ignoreFocusOut = true;
    pick.items = options.items;
    if (options.selected?.length) {
      if (many) pick.selectedItems = options.selected;
      else pick.activeItems = options.selected;
    }
    pick.buttons = (options.step ?? 1) > 1 ? [vscode.QuickInputButtons.Back] : [];
    return this.settle(pick, (resolve) => pick.onDidAccept(() => {
      if (many || pick.selectedItems.length) resolve([...pick.selectedItems]);
    }));
  }

  input(options: InputOptions): Promise<string> {
    const box = vscode.window.createInputBox();
    box.title = options.title;
    box.step = options.step;
    box.totalSteps = options.totalSteps;
    box.prompt = options.prompt;
    box.value = options.value ?? '';
    box.placeholder = options.placeholder;
    box.password = options.password ?? false;
    box.ignoreFocusOut = true;
    box.buttons = (options.step ?? 1) > 1 ? [vscode.QuickInputButtons.Back] : [];
    const validate = (value: string) => options.validate?.(value);
    return this.settle(box, (resolve) => {
      const changed = box.onDidChangeValue((value) => {
        box.validationMessage = validate(value);
      });
      const accepted = box.onDidAccept(async () => {
        const value = box.value;
        let problem = validate(value);
        if (!problem && options.check) {
          box.busy = true;
          box.enabled = false;
          problem = await options.check(value);
          box.busy = false;
          box.enabled = true;
        }
        box.validationMessage = problem;
        if (!problem) resolve(value);
      });
      return vscode.Disposable.from(changed, accepted);
    });
  }

  private settle<R>(
    widget: vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox,
    onAccept: (resolve: (value: R) => void) => vscode.Disposable,
  ): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let settled = false;
      const finish = (action: () => void) => {
        if (settled) return;
        settled = true;
        subscriptions.dispose();
        widget.dispose();
        action();
      };
      const subscriptions = vscode.Disposable.from(
        onAccept((value) => finish(() => resolve(value))),
        widget.onDidTriggerButton((button) => {
          if (button === vscode.QuickInputButtons.Back) finish(() => reject(InputFlowAction.back));
        }),
        widget.onDidHide(() => finish(() => reject(new vscode.CancellationError()))),
      );
      widget.show();
    });
  }

  async openCsv(title: string): Promise<vscode.Uri> {
    const picked = await vscode.window.showOpenDialog({
      title,
      canSelectMany: false,
      openLabel: 'Select CSV',
      filters: { 'CSV files': [...CSV_EXTENSIONS] },
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    if (!picked?.[0]) throw new vscode.CancellationError();
    return picked[0];
  }

  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
  }
}

/** Forwards to the real prompts, or to a stand-in installed with `use` (tests answer prompts this way). */
export class SwitchableQuickInputs implements QuickInputs {
  private current: QuickInputs;

  constructor(private readonly real: QuickInputs = new VsCodeQuickInputs()) {
    this.current = real;
  }

  use(inputs: QuickInputs | undefined): void {
    this.current = inputs ?? this.real;
  }

  pick<T extends vscode.QuickPickItem>(options: PickOptions<T>): Promise<T> {
    return this.current.pick(options);
  }
  pickMany<T extends vscode.QuickPickItem>(options: PickOptions<T>): Promise<T[]> {
    return this.current.pickMany(options);
  }
  input(options: InputOptions): Promise<string> {
    return this.current.input(options);
  }
  openCsv(title: string): Promise<vscode.Uri> {
    return this.current.openCsv(title);
  }
  confirm(message: string, detail: string, action: string): Promise<boolean> {
    return this.current.confirm(message, detail, action);
  }
}
