import * as vscode from 'vscode';
import { signalFromToken } from '../common/cancellation';

/** Runs `task` under a cancellable progress notification; its Cancel button aborts `signal`. */
export function underProgress<T>(title: string, task: (signal: AbortSignal, report: (message: string) => void) => Promise<T>): Promise<T> {
  return Promise.resolve(vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => task(signalFromToken(token), (message) => progress.report({ message })),
  ));
}
