import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { resolveBoostParams } from '../boost/sizeDefaults';
import { EngineError } from '../errors';
import { assembleBoosted, binParts, planBoosted, runBag, type BagTask, type Binner, type BoostedPlan } from '../boost/fitBoosted';
import type { BagResult, BoostData } from '../boost/booster';
import { planFit, type FitPlan } from '../plan/plan';
import { assembleModel, featureTasks, fitFeatureTask, type FeatureTask } from '../xplainable/fit';
import type { DataFrame } from '../data/frame';
import type { FeatureModel, FitOptions, TransparentModel } from '../model/types';

/** Below this many cells (rows × features) starting threads costs more than it saves. */
const PARALLEL_MIN_CELLS = 2_000_000;

export interface ParallelOptions {
  /** Worker threads to use (default: the machine's available parallelism). */
  threads?: number;
  /** Fits smaller than this many cells run on the calling thread (default 2,000,000). */
  minCells?: number;
}

export type FitWorkerRequest =
  | { type: 'target'; part: number; y: Float64Array }
  | { type: 'task'; id: number; part: number; task: Omit<FeatureTask, 'y'> }
  | { type: 'boostData'; part: number; data: BoostData }
  | { type: 'bag'; id: number; part: number; task: Omit<BagTask, 'data'> };
export type FitWorkerReply =
  | { id: number; feature: FeatureModel }
  | { id: number; bag: BagResult }
  | { id: number; error: string; field?: string };

/**
 * `fitModel` with the per-feature work spread over worker threads for large data; the result is identical to
 * `fitModel`'s. Small fits (see `minCells`) run on the calling thread. Needs the bundled `fit.worker.js` next to the
 * calling bundle (esbuild writes it to `dist/`), or tsx when run from sources.
 */
export async function fitModelParallel(
  frame: DataFrame,
  options: FitOptions,
  parallel: ParallelOptions = {},
): Promise<TransparentModel> {
  return (await fitPlansParallel([planFit(frame, options)], parallel))[0];
}

/**
 * Several planned fits whose tasks share one set of worker threads (started once for all of them); each model is
 * identical to `fitPlan`'s with the same `bin`.
 */
export async function fitPlansParallel(
  plans: readonly FitPlan[],
  parallel: ParallelOptions = {},
  bin: Binner = binParts,
): Promise<TransparentModel[]> {
  const threads = parallel.threads ?? availableParallelism();
  const minCells = parallel.minCells ?? PARALLEL_MIN_CELLS;
  const counts = plans.map(taskCount);
  // Small fits, and those with fewer than two tasks for the threads at hand, run on this thread.
  const here = plans.map((plan, k) => plan.parts[0].frame.nRows * plan.features.length < minCells || Math.min(threads, counts[k]) < 2);
  const used = Math.min(threads, counts.reduce((sum, count, k) => (here[k] ? sum : sum + count), 0));
  // With the options checked, threads start while this thread bins the data, which their tasks wait for anyway.
  const workers = used > 1 ? Array.from({ length: used }, startWorker) : [];
  const prepared: PreparedFit[] = [];
  const messages: WorkerMessages[] = [];
  const firstMessage: number[] = [];
  try {
    // Tasks and shared data keep unique numbers across fits: ids index the replies, parts key what a worker holds.
    let parts = 0;
    plans.forEach((plan, k) => {
      const p = prepareFit(plan, bin, here[k], messages.length, parts);
      prepared.push(p);
      firstMessage.push(messages.length);
      if ('model' in p) return;
      for (const m of p.messages) messages.push(m);
      parts += plan.parts.length;
    });
  } catch (error) {
    await stopWorkers(workers);
    throw error;
  }
  const replies = messages.length ? await runInWorkers(messages, workers) : [];
  return prepared.map((p, k) => ('model' in p ? p.model : p.assemble(replies.slice(firstMessage[k], firstMessage[k] + p.messages.length))));
}

/** A fit done on the calling thread (small, or one task), or its worker messages and how to assemble the replies. */
type PreparedFit = { model: TransparentModel } | { messages: WorkerMessages[]; assemble: (replies: FitWorkerReply[]) => TransparentModel };

/** The tasks a fit splits into: one per bag and partition when boosted, else one per feature and partition. */
function taskCount(plan: FitPlan): number {
  if (plan.method !== 'boosted') return plan.parts.length * plan.features.length;
  return plan.parts.reduce((sum, part) => sum + resolveBoostParams(plan.boost, part.y.length).outer_bags, 0);
}

/** Its worker messages number tasks from `idBase` and partitions from `partBase`, unique across the fits. */
function prepareFit(plan: FitPlan, bin: Binner, here: boolean, idBase: number, partBase: number): PreparedFit {
  if (plan.method === 'boosted') {
    const boosted = planBoosted(plan, bin);
    if (!here) shareBoostData(boosted);
    const message = (task: BagTask, k: number): WorkerMessages => {
      const { data, ...rest } = task;
      const part = partBase + task.part;
      return { shared: { type: 'boostData', part, data }, task: { type: 'bag', id: idBase + k, part, task: rest } };
    };
    return prepared(boosted.tasks, here, runBag, message, (bags) => assembleBoosted(boosted, bags));
  }
  const tasks = featureTasks(plan);
  const sharedTargets = new Map<Float64Array, Float64Array>();
  const message = (t: FeatureTask, k: number): WorkerMessages => {
    const part = partBase + Math.floor(k / plan.features.length);
    const { y, ...task } = t;
    if (!sharedTargets.has(y)) sharedTargets.set(y, inSharedMemory(y));
    return { shared: { type: 'target', part, y: sharedTargets.get(y) as Float64Array }, task: { type: 'task', id: idBase + k, part, task } };
  };
  return prepared(tasks, here, fitFeatureTask, message, (features) => assembleModel(plan, features));
}

/** The array in shared memory (copied there unless it is already): posted to a thread, it is shared, not copied. */
function inSharedMemory<T extends Float64Array | Uint16Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const shared = new (a.constructor as new (buffer: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.byteLength));
  shared.set(a);
  return shared;
}

/**
 * Moves a boosted fit's binned rows and target into shared memory (its binned features then hold the shared codes),
 * so every thread reads one copy in place rather than receiving its own; the threads only read them. Fits sharing
 * bins (see binOnce) find the codes there already, so their partitions' data differ only in the target.
 */
function shareBoostData(boosted: BoostedPlan): void {
  const shared = new Map<BoostData, BoostData>();
  for (const task of boosted.tasks) {
    let data = shared.get(task.data);
    if (!data) {
      const binned = boosted.binned[task.part];
      for (const feature of binned) feature.codes = inSharedMemory(feature.codes);
      data = { ...task.data, y: inSharedMemory(task.data.y), codes: binned.map((feature) => feature.codes) };
      shared.set(task.data, data);
    }
    task.data = data;
  }
}

/** Runs `tasks` on this thread when `here`, else hands over their worker messages and how to assemble the replies. */
function prepared<T, R extends FeatureModel | BagResult>(
  tasks: T[],
  here: boolean,
  run: (task: T) => R,
  message: (task: T, index: number) => WorkerMessages,
  assemble: (results: R[]) => TransparentModel,
): PreparedFit {
  if (here) return { model: assemble(tasks.map(run)) };
  return { messages: tasks.map(message), assemble: (replies) => assemble(replies.map((r) => ('bag' in r ? r.bag : (r as { feature: FeatureModel }).feature) as R)) };
}

/** A task for a worker and the data it shares with other tasks of its partition (sent once per worker and partition). */
interface WorkerMessages {
  shared: Exclude<FitWorkerRequest, { id: number }>;
  task: Extract<FitWorkerRequest, { id: number }>;
}

/** The bundled worker next to this bundle, or (running from sources) the TypeScript one loaded through tsx. */
function startWorker(): Worker {
  if (!__filename.endsWith('.ts')) return new Worker(join(__dirname, 'fit.worker.js'));
  const source = join(__dirname, 'fit.worker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true });
}

/** Stops workers; one that fails while stopping (or before it had work) has nothing left to report. */
async function stopWorkers(workers: Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.on('error', () => {}).terminate()));
}

/** Feeds tasks to the workers one at a time (a free worker takes the next), in any order; results keep task order. */
function runInWorkers(messages: WorkerMessages[], workers: Worker[]): Promise<FitWorkerReply[]> {
  const results: FitWorkerReply[] = new Array(messages.length);
  const stop = () => stopWorkers(workers);
  return new Promise<FitWorkerReply[]>((resolve, reject) => {
    let next = 0;
    let done = 0;
    let failed = false;
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      void stop().finally(() => reject(e));
    };
    workers.forEach((worker) => {
      const sentShared = new Set<number>();
      const feed = () => {
        if (next >= messages.length) return;
        const { shared, task } = messages[next++];
        if (!sentShared.has(shared.part)) {
          sentShared.add(shared.part);
          worker.postMessage(shared);
        }
        worker.postMessage(task);
      };
      worker.on('message', (reply: FitWorkerReply) => {
        if ('error' in reply) return fail(new EngineError(reply.error, reply.field));
        results[reply.id] = reply;
        if (++done === messages.length) void stop().then(() => resolve(results), reject);
        else feed();
      });
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (done < messages.length) fail(new EngineError(`A fit worker thread stopped early (exit code ${code})`));
      });
      feed();
    });
  });
}
