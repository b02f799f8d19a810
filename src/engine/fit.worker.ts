// Worker thread of `fitModelParallel`: fits single features (`xplainable`) or single bags (`boosted`). What tasks of
// one partition share (its target, and its binned data, which fits on the same rows share too) arrives once per
// worker; a feature task brings its own column.
import { parentPort } from 'node:worker_threads';
import { EngineError } from './errors';
import type { BoostData } from './boost/booster';
import { runBag } from './boost/fitBoosted';
import { fitFeatureTask, type FeatureTask } from './fit';
import type { FitWorkerReply, FitWorkerRequest } from './parallel';

type SharedBins = Extract<FitWorkerRequest, { type: 'bins' }>['data'];

const targets = new Map<number, Float64Array>();
const bins = new Map<number, SharedBins>();
const boostData = new Map<number, BoostData>();
const port = parentPort;

port?.on('message', (msg: FitWorkerRequest) => {
  if (msg.type === 'target') {
    targets.set(msg.part, msg.y);
    return;
  }
  if (msg.type === 'bins') {
    bins.set(msg.bins, msg.data);
    return;
  }
  if (msg.type === 'boostTarget') {
    boostData.set(msg.part, { ...msg.data, ...(bins.get(msg.bins) as SharedBins) });
    return;
  }
  let reply: FitWorkerReply;
  try {
    if (msg.type === 'bag') reply = { id: msg.id, bag: runBag({ ...msg.task, data: boostData.get(msg.part) as BoostData }) };
    else {
      const task: FeatureTask = { ...msg.task, y: targets.get(msg.part) as Float64Array };
      reply = { id: msg.id, feature: fitFeatureTask(task) };
    }
  } catch (e) {
    reply = { id: msg.id, error: e instanceof Error ? e.message : String(e), field: e instanceof EngineError ? e.field : undefined };
  }
  port.postMessage(reply);
});
