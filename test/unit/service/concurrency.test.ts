import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { TRAINING_THREAD_NAME } from '../../../src/service/training/priority';
import { useService } from './harness';
import { smallCsv, trainSmall, uploadCsv } from './fixtures';

describe('service: concurrency', function () {
  this.timeout(120_000);
  const env = useService();

  it('runs 20 parallel trains, each stored once with its own name', async () => {
    const datasetId = await uploadCsv(env.call, smallCsv(300));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: `parallel-${i}`, dataset_id: datasetId, seed: i } }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status), Array(20).fill(200));
    assert.equal(new Set(results.map((r) => r.body.model_id)).size, 20);
    const list = await env.call('GET', `/v1/models/teams/${env.service.teamId}`);
    const names = list.body.map((m: { model_name: string }) => m.model_name).filter((n: string) => n.startsWith('parallel-'));
    assert.equal(names.length, 20);
    assert.equal(new Set(names).size, 20);
  });

  it('answers 200 parallel reads consistently', async () => {
    const model = await trainSmall(env.call);
    const paths = [`/v1/models/${model.model_id}`, `/v1/models/versions/${model.model_id}`, `/v1/models/profile/${model.version_id}`, `/v1/models/teams/${env.service.teamId}`];
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => env.call('GET', paths[i % paths.length])));
    assert.deepEqual(results.map((r) => r.status), Array(200).fill(200));
    const profiles = results.filter((_, i) => i % paths.length === 2).map((r) => JSON.stringify(r.body));
    assert.equal(new Set(profiles).size, 1);
  });

  it('runs its training threads below the priority of the request thread', async () => {
    await trainSmall(env.call);
    const pid = env.service.child.pid as number;
    // A thread's /proc file, or undefined once the thread has ended (threads a fit starts come and go).
    const proc = (tid: string, file: string) => {
      try {
        return readFileSync(`/proc/${pid}/task/${tid}/${file}`, 'utf8');
      } catch {
        return undefined;
      }
    };
    // Field 19 of a thread's stat line; the command name (field 2) ends with ") ".
    const nice = (tid: string) => {
      const stat = proc(tid, 'stat');
      return stat === undefined ? [] : [Number(stat.split(') ')[1].split(' ')[16])];
    };
    const training = readdirSync(`/proc/${pid}/task`).filter((tid) => proc(tid, 'comm')?.trim() === TRAINING_THREAD_NAME).flatMap(nice);
    // The service inherits this process's niceness (tests may run under `nice`).
    assert.deepEqual(nice(String(pid)), [getPriority()], 'the request thread keeps the priority it was started with');
    assert.ok(training.length >= 2, `the pool's training threads are found by name (${training.length} found)`);
    assert.ok(training.every((level) => level > getPriority()), `the training threads' niceness ${training.join(', ')} is above ${getPriority()}`);
  });

  it('answers reads while trains run on the workers', async () => {
    let finished = 0;
    const trains = Array.from({ length: 2 }, (_, i) =>
      env.call('POST', '/v1/models/train', { json: { target_column: 'delay', model_name: `busy-${i}`, dataset_name: 'flights-20k', model_type: 'regressor' } }).then((r) => {
        finished++;
        return r;
      }),
    );
    const health = await env.call('GET', '/v1/health');
    assert.equal(health.status, 200);
    assert.equal(finished, 0, 'the read was answered before either train finished');
    const done = await Promise.all(trains);
    assert.deepEqual(done.map((r) => r.status), [200, 200]);
  });
});
