import assert from 'node:assert/strict';
import type { DatasetSummary, GoalInput } from '../../../src/contract';
import { parseCsv } from '../../../src/engine';
import { generateFeatureEngineering, generateGoals, generateInsights, generateLabels, RULES_CONTEXT, visualizeData } from '../../../src/autotrain';
import { useService, type Call } from './harness';
import { strikesCsv } from './fixtures';

async function summarizeUpload(call: Call, csv: string, name: string): Promise<DatasetSummary> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), name);
  const res = await call('POST', '/v1/autotrain/summarize-dataset', { body: form });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as DatasetSummary;
}

const SCATTER: GoalInput = { index: 0, question: 'How do speed and height relate?', visualization: 'scatter plot of Speed vs Height', rationale: '', columns: ['Speed', 'Height'] };

describe('service: autotrain rules over the rows run on the worker pool', function () {
  this.timeout(300_000);
  const env = useService();

  it('answers goals, labels, features, charts and insights from the stored rows as the rules do from the frame', async () => {
    const csv = strikesCsv(600);
    const summary = await summarizeUpload(env.call, csv, 'strikes.csv');
    const frame = parseCsv(csv);
    const post = async (route: string, req: unknown) => {
      const res = await env.call('POST', `/v1/autotrain/${route}`, { json: { req } });
      assert.equal(res.status, 200, `${route}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    assert.deepEqual(await post('generate_goals', { summary, n: 8, persona: 'an insurer' }), await generateGoals(summary, 8, RULES_CONTEXT, { frame, persona: 'an insurer' }));
    assert.deepEqual(await post('generate_labels', { summary }), await generateLabels(summary, RULES_CONTEXT, frame));
    assert.deepEqual(await post('generate_feature_engineering', { summary, n: 6 }), await generateFeatureEngineering(summary, 6, RULES_CONTEXT, { frame }));
    assert.deepEqual(await post('visualize', { summary, goal: SCATTER, library: 'plotly' }), await visualizeData(summary, SCATTER, 'plotly', RULES_CONTEXT, frame));
    assert.deepEqual(await post('insights', { summary, goal: SCATTER }), await generateInsights(SCATTER, summary, frame, RULES_CONTEXT));
  });

  it('keeps answering health checks while goals are computed over a large dataset', async () => {
    const summary = await summarizeUpload(env.call, strikesCsv(400_000), 'large-strikes.csv');
    let answered = false;
    const goals = env.call('POST', '/v1/autotrain/generate_goals', { json: { req: { summary, n: 6 } } }).then((res) => {
      answered = true;
      return res;
    });
    // Health checks one after another until the goals arrive: on a request thread busy with the rows, the first of
    // them would wait for the whole computation and no other would be answered before the goals.
    let answers = 0;
    while (!answered) {
      assert.equal((await env.call('GET', '/v1/health')).status, 200);
      if (!answered) answers++;
    }
    const res = await goals;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // How long the longest wait between two answers is against the whole computation: `npm run bench -- service`.
    assert.ok(answers >= 2, `health answered ${answers} times before the goals`);
  });
});
