import * as vscode from 'vscode';
import { CSV_EXTENSIONS } from '../engine';
import {
  BACK, type Answer, type ConfirmRequest, type InputRequest, type PickItem, type PickRequest, type PromptPosition, type Prompter,
} from './prompter';

type Row<T> = vscode.QuickPickItem & { readonly item: PickItem<T> };

function place(widget: vscode.QuickInput & { buttons: readonly vscode.QuickInputButton[] }, position: PromptPosition): void {
  widget.title = position.title;
  widget.step = position.step;
  widget.totalSteps = position.totalSteps;
  widget.ignoreFocusOut = true;
  widget.buttons = position.canGoBack ? [vscode.QuickInputButtons.Back] : [];
}

function rowOf<T>(item: PickItem<T>): Row<T> {
  return item.separator
    ? { label: item.label, kind: vscode.QuickPickItemKind.Separator, item }
    : { label: item.label, description: item.description, detail: item.detail, item };
}

/**
 * Shows a widget and settles once: with what `onAccept` resolves, `BACK` when the Back button is pressed,
 * `undefined` when it is hidden (Escape, focus elsewhere with ignoreFocusOut off), or the rejection of `failure`.
 */
function settle<R>(
  widget: vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox,
  onAccept: (resolve: (value: R) => void) => vscode.Disposable,
  failure?: Promise<never>,
): Promise<Answer<R>> {
  return new Promise<Answer<R>>((resolve, reject) => {
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
        if (button === vscode.QuickInputButtons.Back) finish(() => resolve(BACK));
      }),
      widget.onDidHide(() => finish(() => resolve(undefined))),
    );
    failure?.catch((error: unknown) => finish(() => reject(error)));
    widget.show();
  });
}

/** The prompts on VS Code's QuickPick, InputBox, open dialog and modal warning. */
export class VsCodePrompter implements Prompter {
  async pickOne<T>(request: PickRequest<T>): Promise<Answer<T>> {
    const picked = await this.pick(request, false);
    return picked === undefined || picked === BACK ? picked : picked[0];
  }

  pickMany<T>(request: PickRequest<T>): Promise<Answer<T[]>> {
    return this.pick(request, true);
  }

  /** Items still loading show a busy, disabled QuickPick with the step's title until they arrive. */
  private pick<T>(request: PickRequest<T>, many: boolean): Promise<Answer<T[]>> {
    const pick = vscode.window.createQuickPick<Row<T>>();
    place(pick, request.position);
    pick.placeholder = request.placeholder;
    pick.canSelectMany = many;
    pick.matchOnDescription = true;
    const show = (items: readonly PickItem<T>[]) => {
      const rows = items.map(rowOf);
      pick.items = rows;
      const selected = rows.filter((row) => row.item.picked);
      if (selected.length) {
        if (many) pick.selectedItems = selected;
        else pick.activeItems = selected;
      }
    };
    let failure: Promise<never> | undefined;
    if (request.items instanceof Promise) {
      pick.busy = true;
      pick.enabled = false;
      failure = request.items.then((items) => {
        show(items);
        pick.busy = false;
        pick.enabled = true;
        return new Promise<never>(() => undefined);
      });
    } else {
      show(request.items);
    }
    return settle<T[]>(pick, (resolve) => pick.onDidAccept(() => {
      if (many || pick.selectedItems.length) resolve(pick.selectedItems.map((row) => row.item.value));
    }), failure);
  }

  input(request: InputRequest): Promise<Answer<string>> {
    const box = vscode.window.createInputBox();
    place(box, request.position);
    box.prompt = request.prompt;
    box.value = request.value;
    box.placeholder = request.placeholder;
    box.password = request.password ?? false;
    const validate = (value: string) => request.validate?.(value);
    return settle<string>(box, (resolve) => {
      const changed = box.onDidChangeValue((value) => {
        box.validationMessage = validate(value);
      });
      const accepted = box.onDidAccept(async () => {
        const value = box.value;
        let problem = validate(value);
        if (!problem && request.check) {
          box.busy = true;
          box.enabled = false;
          problem = await request.check(value);
          box.busy = false;
          box.enabled = true;
        }
        box.validationMessage = problem;
        if (!problem) resolve(value);
      });
      return vscode.Disposable.from(changed, accepted);
    });
  }

  async pickCsvFile(title: string): Promise<string | undefined> {
    const picked = await vscode.window.showOpenDialog({
      title,
      canSelectMany: false,
      openLabel: vscode.l10n.t('Select data file'),
      filters: { [vscode.l10n.t('CSV or Parquet files')]: [...CSV_EXTENSIONS, 'parquet'] },
      defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    return picked?.[0]?.fsPath;
  }

  async confirm(request: ConfirmRequest): Promise<boolean> {
    return (await vscode.window.showWarningMessage(request.message, { modal: true, detail: request.detail }, request.action)) === request.action;
  }
}

/** Forwards to the real prompts, or to a stand-in installed with `use` (tests answer prompts this way). */
export class SwitchablePrompter implements Prompter {
  private current: Prompter;

  constructor(private readonly real: Prompter = new VsCodePrompter()) {
    this.current = real;
  }

  use(prompter: Prompter | undefined): void {
    this.current = prompter ?? this.real;
  }

  pickOne<T>(request: PickRequest<T>): Promise<Answer<T>> {
    return this.current.pickOne(request);
  }
  pickMany<T>(request: PickRequest<T>): Promise<Answer<T[]>> {
    return this.current.pickMany(request);
  }
  input(request: InputRequest): Promise<Answer<string>> {
    return this.current.input(request);
  }
  pickCsvFile(title: string): Promise<string | undefined> {
    return this.current.pickCsvFile(title);
  }
  confirm(request: ConfirmRequest): Promise<boolean> {
    return this.current.confirm(request);
  }
}
