// What the extension-host suites share: a scripted stand-in for the user, installed through the extension's
// `inputs` seam, and running a command with it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { XModelsExtensionApi } from '../../../src/extension';
import {
  BACK, type Answer as PromptAnswer, type ConfirmRequest, type InputRequest, type PickItem, type PickRequest, type Prompter,
} from '../../../src/prompts/prompter';

/** One scripted answer: pick an item by label, tick items, type text, press Back, choose a file or confirm. */
export type Answer =
  | { pick: string | RegExp }
  | { enter: true }
  | { many: string[] }
  | { input: string }
  | { back: true }
  | { file: vscode.Uri }
  | { confirm: boolean };

interface Asked {
  kind: string;
  title: string;
  step?: number;
  text?: string;
  value?: string;
}

/** Answers prompts from a queue, as a user would; records what was asked and every validation message shown. */
export class ScriptedInputs implements Prompter {
  readonly asked: Asked[] = [];
  readonly problems: string[] = [];

  constructor(private readonly answers: Answer[]) {}

  get remaining(): number {
    return this.answers.length;
  }

  private next(kind: string, title: string, step?: number, text?: string, value?: string): Answer {
    this.asked.push({ kind, title, step, text, value });
    const answer = this.answers.shift();
    if (!answer) throw new Error(`No scripted answer left for ${kind} "${title}" (${text ?? ''})`);
    return answer;
  }

  private async rows<T>(request: PickRequest<T>): Promise<PickItem<T>[]> {
    return (await request.items).filter((item) => !item.separator);
  }

  async pickOne<T>(request: PickRequest<T>): Promise<PromptAnswer<T>> {
    const items = await this.rows(request);
    const answer = this.next('pick', request.position.title, request.position.step, request.placeholder);
    if ('back' in answer) return BACK;
    if ('enter' in answer) return (items.find((item) => item.picked) ?? items[0]).value;
    if (!('pick' in answer)) throw new Error(`Expected a pick answer for "${request.placeholder}", got ${JSON.stringify(answer)}`);
    const found = items.find((item) => matches(item.label, answer.pick));
    if (!found) throw new Error(`No item ${answer.pick} in "${request.placeholder}": ${items.map((i) => i.label).join(' | ')}`);
    return found.value;
  }

  async pickMany<T>(request: PickRequest<T>): Promise<PromptAnswer<T[]>> {
    const items = await this.rows(request);
    const answer = this.next('pickMany', request.position.title, request.position.step, request.placeholder);
    if ('back' in answer) return BACK;
    if ('enter' in answer) return items.filter((item) => item.picked).map((item) => item.value);
    if (!('many' in answer)) throw new Error(`Expected a many answer for "${request.placeholder}"`);
    return items.filter((item) => answer.many.some((label) => matches(item.label, label))).map((item) => item.value);
  }

  async input(request: InputRequest): Promise<PromptAnswer<string>> {
    for (;;) {
      const answer = this.next('input', request.position.title, request.position.step, request.prompt, request.value);
      if ('back' in answer) return BACK;
      const value = 'enter' in answer ? request.value : 'input' in answer ? answer.input : undefined;
      if (value === undefined) throw new Error(`Expected an input answer for "${request.prompt}"`);
      const problem = request.validate?.(value) ?? (await request.check?.(value));
      if (!problem) return value;
      this.problems.push(problem);
    }
  }

  async pickCsvFile(title: string): Promise<string | undefined> {
    const answer = this.next('openCsv', title);
    if (!('file' in answer)) throw new Error(`Expected a file answer for "${title}"`);
    return answer.file.fsPath;
  }

  async confirm(request: ConfirmRequest): Promise<boolean> {
    const answer = this.next('confirm', request.message);
    if (!('confirm' in answer)) throw new Error(`Expected a confirm answer for "${request.message}"`);
    return answer.confirm;
  }
}

function matches(label: string, wanted: string | RegExp): boolean {
  const plain = label.replace(/^\$\([^)]+\)\s*/, '');
  return typeof wanted === 'string' ? plain === wanted : wanted.test(plain);
}

export async function xmodelsApi(): Promise<XModelsExtensionApi> {
  const ext = vscode.extensions.getExtension<XModelsExtensionApi>('xmodels.xmodels');
  assert.ok(ext, 'the XModels extension is not installed');
  return ext.activate();
}

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs / 1000} s waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs a command with its prompts answered by `answers`; fails when the command reported an error (the command
 * wrapper turns errors into toasts, so they are caught here from its failure event) or left answers unused.
 */
export async function runCommand<T>(api: XModelsExtensionApi, answers: Answer[], command: string, ...args: unknown[]): Promise<{ result: T; inputs: ScriptedInputs }> {
  const inputs = new ScriptedInputs(answers);
  const failures: string[] = [];
  const listener = api.commands.onDidFailCommand((failure) => failures.push(failure.message));
  api.inputs.use(inputs);
  try {
    const result = (await vscode.commands.executeCommand(command, ...args)) as T;
    assert.deepEqual(failures, [], `${command} failed`);
    assert.equal(inputs.remaining, 0, `${command} left scripted answers unused; asked: ${JSON.stringify(inputs.asked)}`);
    return { result, inputs };
  } finally {
    api.inputs.use(undefined);
    listener.dispose();
  }
}
