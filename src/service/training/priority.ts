import { readlinkSync, writeFileSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

/**
 * Runs the calling worker thread, and the threads it starts (they inherit it), below normal priority, so the request
 * thread gets a core first while a fit uses them all: list and get keep their latency during a big train. Linux
 * only (a thread's id is read from /proc); elsewhere, or if not permitted, the thread keeps its priority.
 */
export function yieldToRequests(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    // Relative to the thread's own niceness, so it stays below the request thread of a service started under `nice`.
    const lower = getPriority(threadId) + constants.priority.PRIORITY_BELOW_NORMAL;
    setPriority(threadId, Math.min(lower, constants.priority.PRIORITY_LOW));
  } catch {
    // Not Linux, or not permitted: the thread runs at normal priority.
  }
}

/** What the training threads, and the threads they start (they inherit it), are called in `top -H` and /proc. */
export const TRAINING_THREAD_NAME = 'xmodels-train';

/** Names the calling thread TRAINING_THREAD_NAME, so it can be told from the service's other threads (Linux only). */
export function nameTrainingThread(): void {
  try {
    writeFileSync('/proc/thread-self/comm', TRAINING_THREAD_NAME);
  } catch {
    // Not Linux: the thread keeps its name.
  }
}
