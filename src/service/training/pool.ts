import { Worker, type Transferable } from 'node:worker_threads';

interface Job<R> {
  task: unknown;
  transferList: Transferable[];
  signal: AbortSignal | null;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job<unknown> | null;
}

interface WorkerReply {
  id: number;
  value?: unknown;
  error?: { message: string; stack?: string };
}

/** An abort error like the platform's, so callers can tell cancellation from failure. */
function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : Object.assign(new Error('The task was aborted'), { name: 'AbortError' });
}

/**
 * A bounded pool of worker threads running one task each at a time, FIFO. Aborting a queued task drops it; aborting
 * a running task terminates its thread (a fresh one takes its place), which is how training is cancelled.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job<unknown>[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly file: string,
    readonly size: number,
  ) {}

  /** Threads that would start a task at once: free ones (the pool's threads start with its first task), less the queued tasks. */
  get idle(): number {
    return this.size - this.slots.filter((s) => s.job !== null).length - this.queue.length;
  }

  run<R>(task: unknown, options: { signal?: AbortSignal | null; transferList?: Transferable[] } = {}): Promise<R> {
    if (this.closed) return Promise.reject(new Error('The worker pool is closed'));
    const signal = options.signal ?? null;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<R>((resolve, reject) => {
      const job: Job<R> = { task, transferList: options.transferList ?? [], signal, resolve, reject };
      if (signal) {
        job.onAbort = () => this.abort(job as Job<unknown>);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job as Job<unknown>);
      this.dispatch();
    });
  }

  private dispatch(): void {
    // Every thread starts with the first task, so a task later split over the threads never waits for one to start.
    while (this.queue.length > 0 && this.slots.length < this.size) this.spawn();
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.job === null);
      if (!slot) return;
      const job = this.queue.shift() as Job<unknown>;
      slot.job = job;
      slot.worker.postMessage({ id: this.nextId++, task: job.task }, job.transferList);
    }
  }

  private spawn(): void {
    const slot: Slot = { worker: new Worker(this.file), job: null };
    slot.worker.on('message', (reply: WorkerReply) => {
      const job = slot.job;
      slot.job = null;
      if (job) this.settle(job, reply);
      this.dispatch();
    });
    slot.worker.on('error', (error) => this.replace(slot, error));
    slot.worker.on('exit', (code) => {
      if (this.slots.includes(slot)) this.replace(slot, new Error(`A training worker stopped unexpectedly (exit code ${code})`));
    });
    this.slots.push(slot);
  }

  private settle(job: Job<unknown>, reply: WorkerReply): void {
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (reply.error) job.reject(Object.assign(new Error(reply.error.message), { stack: reply.error.stack }));
    else job.resolve(reply.value);
  }

  private replace(slot: Slot, error: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    const job = slot.job;
    slot.job = null;
    void slot.worker.terminate();
    if (job) {
      if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
      job.reject(error);
    }
    if (!this.closed) this.dispatch();
  }

  private abort(job: Job<unknown>): void {
    const queued = this.queue.indexOf(job);
    const error = abortError(job.signal as AbortSignal);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      job.reject(error);
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) this.replace(slot, error);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('The worker pool is closed'));
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
