import type * as vscode from 'vscode';

/** An AbortSignal that aborts when the token is cancelled (the client takes signals, VS Code gives tokens). */
export function signalFromToken(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else {
    const listener = token.onCancellationRequested(() => {
      listener.dispose();
      controller.abort();
    });
  }
  return controller.signal;
}
