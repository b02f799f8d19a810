// Worker thread of `fitModelParallel`: fits single features (`xplainable`) or single bags (`boosted`: of the main
// effects, or of the pair terms). What tasks of
// one partition share (its target, or its binned data) arrives once per worker, in shared memory; a feature task
// brings its own column.
import { parentPort } from 'node:worker_threads';
import { EngineError } from '../base/errors';
import type { BoostData } from '../boost/booster';
import { runBag } from '../boost/fitBoosted';
import { runPairBag } from '../boost/fitPairs';
import type { PairData } from '../boost/pairBooster';
import { fitFeatureTask, type FeatureTask } from '../xplainable/fit';
import type { FitWorkerReply, FitWorkerRequest } from './parallel';

const targets = new Map<number, Float64Array>();
const boostData = new Map<number, BoostData>();
const pairData = new Map<number, PairData>();
const port = parentPort;

port?.on('message', (msg: FitWorkerRequest) => {
  if (msg.type === 'target') {
    targets.set(msg.part, msg.y);
    return;
  }
  if (msg.type === 'boostData') {
    boostData.set(msg.part, msg.data);
    return;
  }
  if (msg.type === 'pairData') {
    pairData.set(msg.part, msg.data);
    return;
  }
  let reply: FitWorkerReply;
  try {
    if (msg.type === 'bag') reply = { id: msg.id, bag: runBag({ ...msg.task, data: boostData.get(msg.part) as BoostData }) };
    else if (msg.type === 'pairBag') reply = { id: msg.id, pairBag: runPairBag({ ...msg.task, data: pairData.get(msg.part) as PairData }) };
    else {
      const task: FeatureTask = { ...msg.task, y: targets.get(msg.part) as Float64Array };
      reply = { id: msg.id, feature: fitFeatureTask(task) };
    }
  } catch (e) {
    reply = { id: msg.id, error: e instanceof Error ? e.message : String(e), field: e instanceof EngineError ? e.field : undefined };
  }
  port.postMessage(reply);
});
