/**
 * What the wizard asks of a user, without any VS Code type, so the same flow runs against real QuickPicks
 * and against a scripted prompter in tests.
 */

/** Answer of a prompt whose Back button was pressed. A registered symbol, so it survives separate bundles. */
export const BACK: unique symbol = Symbol.for('xmodels.wizard.back') as typeof BACK;
export type Back = typeof BACK;

/** `undefined` means the user dismissed the prompt (Escape), which ends the whole flow quietly. */
export type Answer<T> = T | Back | undefined;

/** Where a prompt sits in a multi-step flow; `step`/`totalSteps` are absent for a single prompt. */
export interface PromptPosition {
  readonly title: string;
  readonly step?: number;
  readonly totalSteps?: number;
  /** True when a Back button is shown (every step but the first). */
  readonly canGoBack: boolean;
}

/** A QuickPick row; structurally a `vscode.QuickPickItem` plus the value it stands for. */
export interface PickItem<T> {
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  /** Pre-selected in a multi-select; the active row of a single pick. */
  readonly picked?: boolean;
  readonly value: T;
}

interface PromptBase {
  /** Stable name of the prompt (`summary`, `label`, `goals`…), used by scripted answers and logs. */
  readonly id: string;
  readonly position: PromptPosition;
  readonly placeholder?: string;
}

export interface PickRequest<T> extends PromptBase {
  /** A pending promise shows the prompt as busy until the items arrive; a rejection closes it and is rethrown. */
  readonly items: readonly PickItem<T>[] | Promise<readonly PickItem<T>[]>;
}

export interface InputRequest extends PromptBase {
  readonly prompt: string;
  readonly value: string;
  /** Returns the message to show under the box, or undefined when the value is acceptable. */
  readonly validate?: (value: string) => string | undefined;
}

export interface WizardPrompter {
  pickOne<T>(request: PickRequest<T>): Promise<Answer<T>>;
  pickMany<T>(request: PickRequest<T>): Promise<Answer<T[]>>;
  input(request: InputRequest): Promise<Answer<string>>;
  /** Asks for a CSV file; resolves to its file-system path, or undefined when dismissed. */
  pickCsvFile(title: string): Promise<string | undefined>;
}
