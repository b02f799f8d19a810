import * as vscode from 'vscode';
import { maskSecrets } from './mask';

/** The extension's one log channel; every line passes through `maskSecrets` with the secrets currently in use. */
export class MaskedLog implements vscode.LogOutputChannel {
  private readonly channel = vscode.window.createOutputChannel('XModels', { log: true });

  constructor(private readonly secrets: () => Iterable<string>) {}

  get name(): string {
    return this.channel.name;
  }
  get logLevel(): vscode.LogLevel {
    return this.channel.logLevel;
  }
  get onDidChangeLogLevel(): vscode.Event<vscode.LogLevel> {
    return this.channel.onDidChangeLogLevel;
  }

  trace(message: string, ...args: unknown[]): void {
    this.channel.trace(this.mask(message), ...this.maskArgs(args));
  }
  debug(message: string, ...args: unknown[]): void {
    this.channel.debug(this.mask(message), ...this.maskArgs(args));
  }
  info(message: string, ...args: unknown[]): void {
    this.channel.info(this.mask(message), ...this.maskArgs(args));
  }
  warn(message: string, ...args: unknown[]): void {
    this.channel.warn(this.mask(message), ...this.maskArgs(args));
  }
  error(error: string | Error, ...args: unknown[]): void {
    this.channel.error(this.mask(formatArg(error)), ...this.maskArgs(args));
  }
  append(value: string): void {
    this.channel.append(this.mask(value));
  }
  appendLine(value: string): void {
    this.channel.appendLine(this.mask(value));
  }
  replace(value: string): void {
    this.channel.replace(this.mask(value));
  }
  clear(): void {
    this.channel.clear();
  }
  show(preserveFocus?: boolean): void;
  show(column?: vscode.ViewColumn, preserveFocus?: boolean): void;
  show(first?: boolean | vscode.ViewColumn, preserveFocus?: boolean): void {
    if (typeof first === 'boolean' || first === undefined) this.channel.show(first);
    else this.channel.show(first, preserveFocus);
  }
  hide(): void {
    this.channel.hide();
  }
  dispose(): void {
    this.channel.dispose();
  }

  private mask(text: string): string {
    return maskSecrets(text, this.secrets());
  }
  private maskArgs(args: unknown[]): string[] {
    return args.map((arg) => this.mask(formatArg(arg)));
  }
}

function formatArg(arg: unknown): string {
  if (arg instanceof Error) return arg.stack ?? `${arg.name}: ${arg.message}`;
  if (typeof arg === 'string') return arg;
  try {
    return JSON.stringify(arg);
  } catch {
    return String(arg);
  }
}
