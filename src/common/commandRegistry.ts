import * as vscode from 'vscode';
import { describeError, isCancellation, UserFacingError } from './errors';

export interface CommandFailure {
  command: string;
  message: string;
  error: unknown;
}

/**
 * Registers every command through one wrapper: it logs the call, stays silent when the user cancels, and shows
 * a short error toast ("<Title> failed: <detail>") with "Show log" for anything else.
 */
export class CommandRegistry {
  private readonly _onDidFailCommand = new vscode.EventEmitter<CommandFailure>();
  readonly onDidFailCommand = this._onDidFailCommand.event;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly titles: (id: string) => string,
  ) {}

  register(id: string, handler: (...args: never[]) => unknown): vscode.Disposable {
    return vscode.commands.registerCommand(id, (...args: unknown[]) => this.run(id, () => (handler as (...a: unknown[]) => unknown)(...args), args));
  }

  private async run(id: string, call: () => unknown, args: unknown[]): Promise<unknown> {
    const started = Date.now();
    this.log.debug(`${id} started`, ...args.map(describeArg));
    try {
      const result = await call();
      this.log.debug(`${id} finished in ${Date.now() - started} ms`);
      return result;
    } catch (error) {
      if (isCancellation(error)) {
        this.log.debug(`${id} cancelled`);
        return undefined;
      }
      const message = `${this.titles(id)} failed: ${describeError(error)}`;
      if (error instanceof UserFacingError) this.log.warn(message);
      else this.log.error(`${id} failed`, error);
      this._onDidFailCommand.fire({ command: id, message, error });
      void vscode.window.showErrorMessage(message, vscode.l10n.t('Show log')).then((choice) => {
        if (choice) this.log.show(true);
      });
      return undefined;
    }
  }

  dispose(): void {
    this._onDidFailCommand.dispose();
  }
}

function describeArg(arg: unknown): string {
  if (arg instanceof vscode.Uri) return arg.toString();
  if (typeof arg === 'object' && arg !== null && 'kind' in arg) {
    const { kind, modelId, versionId, partitionId } = arg as Record<string, unknown>;
    return JSON.stringify({ kind, modelId, versionId, partitionId });
  }
  return typeof arg === 'object' ? '[object]' : String(arg);
}
