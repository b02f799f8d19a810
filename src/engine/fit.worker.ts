// Worker thread of `fitModelParallel`: fits single features. The target of each partition arrives once per worker
// (a `target` message); every feature column arrives with its task, so each column is copied exactly once.
import { parentPort } from 'node:worker_threads';
import { EngineError } from './errors';
import { fitFeatureTask, type FeatureTask } from './fit';
import type { FitWorkerReply, FitWorkerRequest } from './parallel';

const targets = new Map<number, Float64Array>();
const port = parentPort;

port?.on('message', (msg: FitWorkerRequest) => {
  if (msg.type === 'target') {
    targets.set(msg.part, msg.y);
    return;
  }
  let reply: FitWorkerReply;
  try {
    const task: FeatureTask = { ...msg.task, y: targets.get(msg.part) as Float64Array };
    reply = { id: msg.id, feature: fitFeatureTask(task) };
  } catch (e) {
    reply = { id: msg.id, error: e instanceof Error ? e.message : String(e), field: e instanceof EngineError ? e.field : undefined };
  }
  port.postMessage(reply);
});
