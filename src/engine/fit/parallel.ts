import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { EngineError } from '../base/errors';
import { assembleBoosted, binParts, planBoosted, type BagTask, type Binner, type BoostedPlan } from '../boost/fitBoosted';
import { fitPlan } from './fit';
import type { BagResult, BoostData } from '../boost/booster';
import { assemblePairs, planPairs, type PairTask } from '../boost/fitPairs';
import type { PairBagResult, PairData } from '../boost/pairBooster';
import { planFit, type FitPlan } from '../plan/plan';
import { assembleModel, featureTasks, type FeatureTask } from '../xplainable/fit';
import type { DataFrame } from '../data/frame';
import type { FeatureModel, FitOptions, TransparentModel } from '../model/types';

/**
 * Below this much work, in cells (rows × features) passed over, starting threads costs more than it saves. A
 * reference fit passes over its cells about once; a boosted one once per bag, each pass many rounds long.
 */
const PARALLEL_MIN_CELLS = 2_000_000;

export interface ParallelOptions {
  /** Worker threads to use (default: the machine's available parallelism). */
  threads?: number;
  /** Fits (all the planned fits together) passing over fewer cells than this run on the calling thread (default 2,000,000). */
  minCells?: number;
}

export type FitWorkerRequest =
  | { type: 'target'; part: number; y: Float64Array }
  | { type: 'task'; id: number; part: number; task: Omit<FeatureTask, 'y'> }
  | { type: 'boostData'; part: number; data: BoostData }
  | { type: 'bag'; id: number; part: number; task: Omit<BagTask, 'data'> }
  | { type: 'pairData'; part: number; data: PairData }
  | { type: 'pairBag'; id: number; part: number; task: Omit<PairTask, 'data'> };
export type FitWorkerReply =
  | { id: number; feature: FeatureModel }
  | { id: number; bag: BagResult }
  | { id: number; pairBag: PairBagResult }
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
  const threads = threadsFor(plans, parallel);
  if (threads === 0) return plans.map((plan) => fitPlan(plan, bin));
  // With the options checked, threads start while this thread bins the data, which their tasks wait for anyway.
  const workers = Array.from({ length: threads }, startWorker);
  try {
    // Tasks and shared data keep unique numbers across fits: ids index the replies, parts key what a worker holds.
    let parts = 0;
    const fits = plans.map((plan) => {
      const fit = prepareFit(plan, bin, parts);
      parts += plan.parts.length;
      return fit;
    });
    const models = await runPhase(fits.map((fit) => fit.main), workers);
    const pairs = fits.map((fit, k) => fit.pairs?.(models[k]) ?? null);
    const withPairs = await runPhase(pairs.filter((p) => p !== null), workers);
    return models.map((model, k) => (pairs[k] ? (withPairs.shift() as TransparentModel) : model));
  } finally {
    await stopWorkers(workers);
  }
}

/** Runs the phases' tasks on the workers together and assembles each phase's replies. */
async function runPhase(phases: Phase[], workers: Worker[]): Promise<TransparentModel[]> {
  const messages = phases.flatMap((phase) => phase.messages).map((m, id) => ({ ...m, task: { ...m.task, id } }));
  if (!messages.length) return phases.map((phase) => phase.assemble([]));
  const replies = await runInWorkers(messages, workers);
  let first = 0;
  return phases.map((phase) => {
    const own = replies.slice(first, first + phase.messages.length);
    first += phase.messages.length;
    return phase.assemble(own);
  });
}

/**
 * The worker threads planned fits run on: none (0) when together they pass over fewer cells than `minCells`, or have
 * fewer than two tasks for the threads at hand. The fits are judged together, so a multiclass model's class models
 * share threads even when each alone is small.
 */
export function threadsFor(plans: readonly FitPlan[], parallel: ParallelOptions = {}): number {
  const tasks = plans.reduce((sum, plan) => sum + taskCount(plan), 0);
  const cells = plans.reduce((sum, plan) => sum + cellPasses(plan), 0);
  const threads = Math.min(parallel.threads ?? availableParallelism(), tasks);
  return cells < (parallel.minCells ?? PARALLEL_MIN_CELLS) || threads < 2 ? 0 : threads;
}

/** Worker messages and how to assemble their replies (in message order) into a model. */
interface Phase {
  messages: WorkerMessages[];
  assemble: (replies: FitWorkerReply[]) => TransparentModel;
}

/** A fit's phases: its main tasks, then (boosted) its pair terms' from the model the main ones give, if it has any. */
interface PreparedFit {
  main: Phase;
  pairs?: (model: TransparentModel) => Phase | null;
}

/** The tasks a fit splits into: one per bag and partition when boosted, else one per feature and partition. */
function taskCount(plan: FitPlan): number {
  if (plan.method !== 'boosted') return plan.parts.length * plan.features.length;
  return plan.parts.reduce((sum, part) => sum + part.boost.outer_bags, 0);
}

/** The cells a fit passes over: its rows × features, once per bag when boosted (see PARALLEL_MIN_CELLS). */
function cellPasses(plan: FitPlan): number {
  const cells = plan.parts[0].frame.nRows * plan.features.length;
  return plan.method === 'boosted' ? cells * plan.parts[0].boost.outer_bags : cells;
}

/** Its worker messages number partitions from `partBase`, unique across the fits (task ids are set per phase). */
function prepareFit(plan: FitPlan, bin: Binner, partBase: number): PreparedFit {
  if (plan.method === 'boosted') {
    const boosted = planBoosted(plan, bin);
    shareBoostData(boosted);
    const message = (task: BagTask): WorkerMessages => {
      const { data, ...rest } = task;
      const part = partBase + task.part;
      return { shared: { type: 'boostData', part, data }, task: { type: 'bag', id: 0, part, task: rest } };
    };
    const replyOf = <R>(reply: FitWorkerReply, key: 'bag' | 'pairBag'): R => (reply as unknown as Record<typeof key, R>)[key];
    return {
      main: { messages: boosted.tasks.map(message), assemble: (replies) => assembleBoosted(boosted, replies.map((r) => replyOf<BagResult>(r, 'bag'))) },
      pairs: (model) => {
        const pairs = planPairs(boosted, model);
        if (!pairs) return null;
        const shared = new Map<PairData, PairData>();
        const pairMessage = (task: PairTask): WorkerMessages => {
          const { data, ...rest } = task;
          if (!shared.has(data)) shared.set(data, { ...data, y: inSharedMemory(data.y), offset: inSharedMemory(data.offset), cells: data.cells.map(inSharedMemory) });
          const part = partBase + task.part;
          return { shared: { type: 'pairData', part, data: shared.get(data) as PairData }, task: { type: 'pairBag', id: 0, part, task: rest } };
        };
        return {
          messages: pairs.tasks.map(pairMessage),
          assemble: (replies) => assemblePairs(boosted, pairs, model, replies.map((r) => replyOf<PairBagResult>(r, 'pairBag'))),
        };
      },
    };
  }
  const tasks = featureTasks(plan);
  const sharedTargets = new Map<Float64Array, Float64Array>();
  const message = (t: FeatureTask, k: number): WorkerMessages => {
    const part = partBase + Math.floor(k / plan.features.length);
    const { y, ...task } = t;
    if (!sharedTargets.has(y)) sharedTargets.set(y, inSharedMemory(y));
    return { shared: { type: 'target', part, y: sharedTargets.get(y) as Float64Array }, task: { type: 'task', id: 0, part, task } };
  };
  return { main: { messages: tasks.map(message), assemble: (replies) => assembleModel(plan, replies.map((r) => (r as { feature: FeatureModel }).feature)) } };
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

/**
 * Feeds tasks to the workers one at a time (a free worker takes the next), in any order; results keep task order. The
 * workers stay up for the next phase; on a failure they are stopped.
 */
function runInWorkers(messages: WorkerMessages[], workers: Worker[]): Promise<FitWorkerReply[]> {
  const results: FitWorkerReply[] = new Array(messages.length);
  return new Promise<FitWorkerReply[]>((resolve, reject) => {
    let next = 0;
    let done = 0;
    let failed = false;
    const detach: (() => void)[] = [];
    const finish = () => detach.forEach((off) => off());
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      finish();
      void stopWorkers(workers).finally(() => reject(e));
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
      const onMessage = (reply: FitWorkerReply) => {
        if ('error' in reply) return fail(new EngineError(reply.error, reply.field));
        results[reply.id] = reply;
        if (++done === messages.length) {
          finish();
          resolve(results);
        } else feed();
      };
      const onExit = (code: number) => fail(new EngineError(`A fit worker thread stopped early (exit code ${code})`));
      worker.on('message', onMessage).on('error', fail).on('exit', onExit);
      detach.push(() => worker.off('message', onMessage).off('error', fail).off('exit', onExit));
      feed();
    });
  });
}
