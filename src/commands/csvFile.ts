import * as vscode from 'vscode';
import { UserFacingError } from '../common/errors';
import type { Prompter } from '../prompts/prompter';

/** The path of the CSV a command works on: the Explorer's file, or one the user picks (undefined when dismissed). */
export async function csvPathFrom(arg: unknown, prompter: Prompter, title: string): Promise<string | undefined> {
  if (!(arg instanceof vscode.Uri)) return prompter.pickCsvFile(title);
  if (arg.scheme !== 'file') throw new UserFacingError(vscode.l10n.t('Only files on disk can be used (got {0}).', arg.toString()));
  return arg.fsPath;
}
