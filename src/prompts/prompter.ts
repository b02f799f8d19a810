/**
 * Every question the extension asks a user, without any VS Code type, so the same flows run against real
 * QuickPicks and InputBoxes and against a scripted prompter in tests.
 */

/** Answer of a prompt whose Back button was pressed. A registered symbol, so it survives separate bundles. */
export const BACK: unique symbol = Symbol.for('xmodels.prompts.back') as typeof BACK;
export type Back = typeof BACK;

/** `undefined` means the user dismissed the prompt (Escape), which ends the whole flow quietly. */
export type Answer<T> = T | Back | undefined;

/** True when the prompt was answered (neither Back nor dismissed). */
export function answered<T>(answer: Answer<T>): answer is T {
  return answer !== undefined && answer !== BACK;
}

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
  /** A separator line (with `label` as its caption) rather than a row that can be chosen. */
  readonly separator?: boolean;
  readonly value: T;
}

interface PromptBase {
  /** Stable name of the prompt (`summary`, `label`, `target`…), used by scripted answers and logs. */
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
  /** Hides what is typed (API keys). */
  readonly password?: boolean;
  /** Checked on every keystroke and on accept; returns the message to show under the box, or undefined. */
  readonly validate?: (value: string) => string | undefined;
  /** Checked on accept only, with the box busy (e.g. a request to the service); returns the problem or undefined. */
  readonly check?: (value: string) => Promise<string | undefined>;
}

/** A modal warning with one action. */
export interface ConfirmRequest {
  readonly id: string;
  readonly message: string;
  readonly detail: string;
  readonly action: string;
}

export interface Prompter {
  pickOne<T>(request: PickRequest<T>): Promise<Answer<T>>;
  pickMany<T>(request: PickRequest<T>): Promise<Answer<T[]>>;
  input(request: InputRequest): Promise<Answer<string>>;
  /** Asks for a CSV file; resolves to its file-system path, or undefined when dismissed. */
  pickCsvFile(title: string): Promise<string | undefined>;
  /** Resolves true when the user chose the action. */
  confirm(request: ConfirmRequest): Promise<boolean>;
}
