import { spawn, type ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { UserFacingError } from '../common/errors';
import { localServiceEnvironment } from './serviceEnvironment';
import { LineSplitter, parseServiceLine, type ServiceLine } from './serviceLine';

export interface LocalServiceOptions {
  /** `dist/cli.js` of this extension. */
  cliPath: string;
  dataDir: string;
  startTimeoutMs: number;
  log: vscode.LogOutputChannel;
}

export interface ServiceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The local service as a child process of the extension host: VS Code's own Node (`process.execPath` with
 * ELECTRON_RUN_AS_NODE) runs `cli.js serve` on 127.0.0.1 with a free port, in an environment of its own (no variable
 * that selects a database or a team); the first JSON line on stdout says where.
 */
export class LocalServiceProcess implements vscode.Disposable {
  private readonly _onDidExitUnexpectedly = new vscode.EventEmitter<ServiceExit>();
  /** Fires when the process ends without `stop` having been called. */
  readonly onDidExitUnexpectedly = this._onDidExitUnexpectedly.event;
  private child: ChildProcess | undefined;
  private stopping = false;

  constructor(private readonly options: LocalServiceOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): Promise<ServiceLine> {
    const { cliPath, dataDir, startTimeoutMs, log } = this.options;
    this.stopping = false;
    const child = spawn(process.execPath, [cliPath, 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir], {
      env: localServiceEnvironment(process.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.child = child;
    log.info(`Starting the local service (pid ${child.pid}) with data in ${dataDir}`);
    const stderr = new LineSplitter();
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of stderr.push(chunk)) log.info(`[service] ${line}`);
    });

    return new Promise<ServiceLine>((resolve, reject) => {
      const stdout = new LineSplitter();
      let started = false;
      const timer = setTimeout(() => {
        if (started) return;
        reject(new UserFacingError(vscode.l10n.t('The local service did not start within {0} s. The log shows its output.', Math.round(startTimeoutMs / 1000))));
        void this.stop();
      }, startTimeoutMs);
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of stdout.push(chunk)) {
          const info = started ? undefined : parseServiceLine(line);
          if (info) {
            started = true;
            clearTimeout(timer);
            log.info(`Local service listening at ${info.url} (team ${info.team_id})`);
            resolve(info);
          } else {
            log.info(`[service] ${line}`);
          }
        }
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        log.error('The local service could not be started', error);
        if (!started) reject(new UserFacingError(vscode.l10n.t('The local service could not be started: {0}', error.message)));
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (this.child === child) this.child = undefined;
        log.info(`The local service exited (code ${code ?? 'none'}, signal ${signal ?? 'none'})`);
        if (!started) {
          reject(new UserFacingError(vscode.l10n.t('The local service stopped while starting (exit code {0}). The log shows its output.', String(code ?? signal))));
        } else if (!this.stopping) {
          this._onDidExitUnexpectedly.fire({ code, signal });
        }
      });
    });
  }

  /** Stops the process: SIGTERM, then SIGKILL if it is still there after a grace period. */
  async stop(graceMs = 3000): Promise<void> {
    const child = this.child;
    this.stopping = true;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  dispose(): void {
    void this.stop();
    this._onDidExitUnexpectedly.dispose();
  }
}
