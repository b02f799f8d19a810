/**
 * A panel's first `load`, started with the panel while its webview is still starting, for the webview's first
 * `load` request when that asks for the same parameters. That first `load` request ends it (taking it over, or
 * aborting it when it asks for other parameters), as does the panel closing; requests of other methods leave it be.
 */
export class EarlyLoad {
  private pending: { params: string; controller: AbortController; result: Promise<unknown> } | undefined;

  constructor(params: unknown, load: (signal: AbortSignal) => Promise<unknown>) {
    const controller = new AbortController();
    const result = load(controller.signal);
    // Its failure is reported to the request that takes it over (a panel closed before that reports nothing).
    result.catch(() => undefined);
    this.pending = { params: JSON.stringify(params), controller, result };
  }

  /** Its result, for the host to post before the webview asks (`init`'s `preloaded`); a failure stays the request's to report. */
  preload(): Promise<unknown> | undefined {
    return this.pending?.result;
  }

  /** The early load, if this first `load` request asks for its parameters (it is then that request's); else aborts it. */
  takeOver(params: unknown): { controller: AbortController; result: Promise<unknown> } | undefined {
    const pending = this.pending;
    if (!pending) return undefined;
    this.pending = undefined;
    if (pending.params === JSON.stringify(params)) return pending;
    pending.controller.abort();
    return undefined;
  }

  /** Stops it unless a request has taken it over (the panel closed first). */
  abort(): void {
    this.pending?.controller.abort();
    this.pending = undefined;
  }
}
