/** The webview side of VS Code: message posting and the persisted state. */
export interface VsCodeApi<State> {
  postMessage(message: unknown): void;
  getState(): State | undefined;
  setState(state: State): void;
}

declare function acquireVsCodeApi<State>(): VsCodeApi<State>;

let api: VsCodeApi<unknown> | undefined;

/** `acquireVsCodeApi` may be called only once per page; this returns the same object every time. */
export function vscodeApi<State>(): VsCodeApi<State> {
  api ??= acquireVsCodeApi<unknown>();
  return api as VsCodeApi<State>;
}
