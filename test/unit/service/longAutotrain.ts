// An autotrain job that runs for several seconds, and its status as it goes: for the tests and benches of replicas.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TrainingStatusSchema, type TrainingStatus } from '../../../src/contract';
import { DATASETS, type Call } from './harness';

/** The flights sample twice over (40,000 rows): an autotrain job on it runs for several seconds. */
function longFlightsCsv(): string {
  const [header, ...rows] = readFileSync(join(DATASETS, 'flights-20k.csv'), 'utf8').trimEnd().split('\n');
  return `${[header, ...rows, ...rows].join('\n')}\n`;
}

export async function status(call: Call, id: string): Promise<TrainingStatus> {
  const res = await call('GET', `/v1/autotrain/check_training_status?training_id=${id}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return TrainingStatusSchema.parse(res.body);
}

export async function waitFor(call: Call, id: string, done: (s: TrainingStatus) => boolean, timeoutMs: number): Promise<TrainingStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await status(call, id);
    if (done(s)) return s;
    if (Date.now() > deadline) throw new Error(`training ${id} did not get there within ${timeoutMs} ms: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const ended = (s: TrainingStatus) => s.status !== 'pending' && s.status !== 'running';

/** Starts an autotrain job of the delay of the long flights data through `call`; resolves with its id. */
export async function startLongAutotrain(call: Call, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([longFlightsCsv()], { type: 'text/csv' }), 'flights-40k.csv');
  const summary = await call('POST', '/v1/autotrain/summarize-dataset', { body: form });
  assert.equal(summary.status, 200, JSON.stringify(summary.body));
  const res = await call('POST', '/v1/autotrain/start_autotrain', {
    json: { team_id: null, req: { model_name: name, model_description: '', summary: summary.body, textgen_config: {}, label: 'delay', model_type: 'regressor' } },
  });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return res.body.training_id as string;
}
