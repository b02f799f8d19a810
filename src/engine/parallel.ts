import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { EngineError } from './errors';
import { assembleModel, featureTasks, fitFeatureTask, planFit, type FeatureTask, type FitPlan } from './fit';
import type { DataFrame } from './frame';
import type { FeatureModel, FitOptions, TransparentModel } from './types';

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
  | { type: 'task'; id: number; part: number; task: Omit<FeatureTask, 'y'> };
export type FitWorkerReply = { id: number; feature: FeatureModel } | { id: number; error: string; field?: string };

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
  const plan = planFit(frame, options);
  const tasks = featureTasks(plan);
  const threads = Math.min(parallel.threads ?? availableParallelism(), tasks.length);
  const cells = frame.nRows * plan.features.length;
  if (threads < 2 || cells < (parallel.minCells ?? PARALLEL_MIN_CELLS)) return assembleModel(plan, tasks.map(fitFeatureTask));
  return assembleModel(plan, await runInWorkers(plan, tasks, threads));
}

/** The bundled worker next to this bundle, or (running from sources) the TypeScript one loaded through tsx. */
function startWorker(): Worker {
  if (!__filename.endsWith('.ts')) return new Worker(join(__dirname, 'fit.worker.js'));
  const source = join(__dirname, 'fit.worker.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true });
}

/** Feeds tasks to the workers one at a time (a free worker takes the next), in any order; results keep task order. */
function runInWorkers(plan: FitPlan, tasks: FeatureTask[], threads: number): Promise<FeatureModel[]> {
  const perPart = plan.features.length;
  const results: FeatureModel[] = new Array(tasks.length);
  const workers = Array.from({ length: threads }, startWorker);
  const stop = () => Promise.all(workers.map((w) => w.terminate()));
  return new Promise<FeatureModel[]>((resolve, reject) => {
    let next = 0;
    let done = 0;
    let failed = false;
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      void stop().finally(() => reject(e));
    };
    workers.forEach((worker) => {
      const sentTargets = new Set<number>();
      const feed = () => {
        if (next >= tasks.length) return;
        const id = next++;
        const part = Math.floor(id / perPart);
        if (!sentTargets.has(part)) {
          sentTargets.add(part);
          worker.postMessage({ type: 'target', part, y: plan.parts[part].y } satisfies FitWorkerRequest);
        }
        const { y: _y, ...task } = tasks[id];
        worker.postMessage({ type: 'task', id, part, task } satisfies FitWorkerRequest);
      };
      worker.on('message', (reply: FitWorkerReply) => {
        if ('error' in reply) return fail(new EngineError(reply.error, reply.field));
        results[reply.id] = reply.feature;
        if (++done === tasks.length) void stop().then(() => resolve(results), reject);
        else feed();
      });
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (done < tasks.length) fail(new EngineError(`A fit worker thread stopped early (exit code ${code})`));
      });
      feed();
    });
  });
}
