import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { XModelsClient } from '../../../src/client';
import { traceClient, type TraceLevel } from '../../../src/connection/requestTrace';

function fakeClient() {
  const calls: string[] = [];
  const client = {
    teamId: 'team-1',
    health: async () => {
      calls.push('health');
      return { status: 'ok' };
    },
    models: {
      prefix: 'm',
      async getModel(this: { prefix: string }, id: string) {
        calls.push(`getModel ${id}`);
        return { model_id: `${this.prefix}-${id}` };
      },
      async deleteModel() {
        throw new Error('gone');
      },
    },
    autotrain: {},
    datasets: {},
    preprocessors: {},
  };
  return { client: client as unknown as XModelsClient, calls };
}

function fakeLog(lines: string[]): vscode.LogOutputChannel {
  return { info: (line: string) => lines.push(line) } as unknown as vscode.LogOutputChannel;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('request trace', () => {
  it('passes calls through untouched and logs nothing when off', async () => {
    const { client, calls } = fakeClient();
    const lines: string[] = [];
    const traced = traceClient(client, fakeLog(lines), () => 'off');
    assert.deepEqual(await traced.models.getModel('a'), { model_id: 'm-a' }, 'methods keep their `this`');
    assert.equal(traced.teamId, 'team-1');
    assert.deepEqual(calls, ['getModel a']);
    assert.deepEqual(lines, []);
  });

  it('logs each call and its outcome, with arguments only when verbose', async () => {
    const { client } = fakeClient();
    const lines: string[] = [];
    let level: TraceLevel = 'messages';
    const traced = traceClient(client, fakeLog(lines), () => level);
    await traced.health();
    await assert.rejects(traced.models.deleteModel('x'), /gone/);
    level = 'verbose';
    await traced.models.getModel('b');
    await settle();
    assert.equal(lines[0], '→ health');
    assert.match(lines[1], /^← health ok in \d+ ms$/);
    assert.equal(lines[2], '→ models.deleteModel');
    assert.match(lines[3], /^← models\.deleteModel failed in \d+ ms: gone$/);
    assert.equal(lines[4], '→ models.getModel ["b"]');
  });

  it('shortens long arguments such as CSV content', async () => {
    const { client } = fakeClient();
    const lines: string[] = [];
    const traced = traceClient(client, fakeLog(lines), () => 'verbose');
    await traced.models.getModel('x'.repeat(500));
    assert.ok(lines[0].length < 260, lines[0]);
    assert.ok(lines[0].includes('…'));
  });
});
