import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorBodySchema, PredictionsSchema } from '../../../src/contract';
import { MAX_COLUMN_NAME, MAX_COLUMNS } from '../../../src/engine';
import { MAX_JSON_DEPTH, MAX_JSON_ITEMS } from '../../../src/service/http/jsonLimits';
import { TEST_BACKEND, useService, type ApiResponse } from './harness';
import { smallCsv, trainSmall, uploadCsv, wideSummary } from './fixtures';

/** The error's status and code, and the detail's mention of every `mentions`; returns the body. */
function refused(res: ApiResponse, status: number, mentions: (string | RegExp)[] = []) {
  assert.equal(res.status, status, JSON.stringify(res.body).slice(0, 400));
  const body = ErrorBodySchema.parse(res.body);
  for (const m of mentions) assert.ok(typeof m === 'string' ? body.detail.includes(m) : m.test(body.detail), `"${body.detail}" should mention ${String(m)}`);
  return body;
}

const nestedArray = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;

describe('service: request bodies are bounded and closed to unknown fields', function () {
  this.timeout(60_000);
  const env = useService();
  let trained: { version_id: string };
  let datasetId: string;

  before(async () => {
    trained = await trainSmall(env.call);
    datasetId = await uploadCsv(env.call, smallCsv(60));
  });

  const train = (json: Record<string, unknown>) => env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'm', csv_content: smallCsv(), ...json } });
  const raw = (path: string, body: string) => env.call('POST', path, { body, contentType: 'application/json' });
  const state = async () => ({
    models: (await env.call('GET', `/v1/models/teams/${env.service.teamId}`)).body.length as number,
    datasets: (await env.call('GET', '/v1/datasets')).body.length as number,
    files: existsSync(join(env.service.dataDir, 'datasets')) ? readdirSync(join(env.service.dataDir, 'datasets')).length : 0,
  });

  it('answers a body nested 10,000 levels deep with a 400 naming the limit, on every JSON route, and keeps answering', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const path of ['/v1/models/train', '/v1/autotrain/generate_goals', '/v1/preprocessors', '/v1/datasets', `/v1/models/versions/${trained.version_id}/predict`]) {
      refused(await raw(path, deep), 400, [`more than ${MAX_JSON_DEPTH} levels deep`]);
      refused(await raw(path, `{"req": {"summary": ${deep}}}`), 400, [`${MAX_JSON_DEPTH} levels`]);
    }
    assert.equal((await env.call('GET', '/v1/health')).status, 200);
  });

  it('answers a NUL character in an id or a name without a 5xx: PostgreSQL cannot store one, SQLite can', async () => {
    const cancelled = await env.call('DELETE', '/v1/autotrain/trainings/%00');
    assert.ok([404, 422].includes(cancelled.status), JSON.stringify(cancelled.body));
    const trained = await env.call('POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'nul\u0000name', csv_content: smallCsv(40) } });
    assert.equal(trained.status, TEST_BACKEND === 'postgres' ? 422 : 200, JSON.stringify(trained.body));
    if (trained.status === 422) assert.match(trained.body.detail, /NUL character/);
  });

  it('takes a value nested up to the limit, and refuses one more level', async () => {
    // The body is one level; the ignored team_id holds the rest.
    const atLimit = await train({ team_id: nestedArray(MAX_JSON_DEPTH - 1) });
    assert.equal(atLimit.status, 200, JSON.stringify(atLimit.body));
    refused(await train({ team_id: nestedArray(MAX_JSON_DEPTH) }), 400, [`${MAX_JSON_DEPTH} levels`]);
  });

  it('answers 413 naming the limit for an array of more items than it, and names at most 20 fields of a 422', async () => {
    refused(await train({ drop_columns: Array.from({ length: MAX_JSON_ITEMS + 1 }, (_, i) => `c${i}`) }), 413, ['100,000 items']);
    const wrong = refused(await train({ drop_columns: Array.from({ length: 5000 }, (_, i) => i) }), 422, ['drop_columns.0']);
    assert.equal(wrong.error.fields?.length, 20);
  });

  it('answers 422 for a CSV of more columns than a dataset may have, at once, inline or uploaded', async () => {
    refused(await train({ csv_content: ','.repeat(3_000_000) }), 422, ['more than 10,000 columns']);
    const before = await state();
    refused(await env.call('POST', '/v1/datasets', { body: `${','.repeat(20_000)}\n1\n`, contentType: 'text/csv' }), 422, ['more than 10,000 columns']);
    assert.deepEqual(await state(), before);
  });

  it('answers the autotrain rules over a summary of as many columns as a dataset may have, and 422 for more', async () => {
    const wide = wideSummary(MAX_COLUMNS);
    // How fast they answer (over every pair of columns they once took 20 s): `npm run bench -- limits`.
    for (const path of ['generate_goals', 'generate_labels', 'generate_feature_engineering']) {
      const res = await env.call('POST', `/v1/autotrain/${path}`, { json: { team_id: null, req: { summary: wide } } });
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    const wider = await env.call('POST', '/v1/autotrain/generate_labels', { json: { team_id: null, req: { summary: wideSummary(MAX_COLUMNS + 1) } } });
    assert.equal(refused(wider, 422, ['req.summary.columns', 'more than the 10000 columns']).error.fields?.length, 3);
    const named = wideSummary(3);
    named.columns[1] = named.fields[1].column = 'n'.repeat(MAX_COLUMN_NAME + 1);
    const longName = await env.call('POST', '/v1/autotrain/generate_goals', { json: { team_id: null, req: { summary: named } } });
    refused(longName, 422, ['req.summary.columns.1', 'more than the 1000 a column name may have']);
  });

  it('answers 422 for a persona or goal longer than a sentence, which an answer would repeat or search for every column', async () => {
    const summary = (await env.call('POST', '/v1/autotrain/summarize', { json: { team_id: null, req: { dataset_id: datasetId } } })).body;
    const persona = await env.call('POST', '/v1/autotrain/generate_goals', { json: { team_id: null, req: { summary, persona: 'p'.repeat(2001) } } });
    assert.equal(refused(persona, 422, ['req.persona']).error.fields?.[0].path, 'req.persona');
    const goal = await env.call('POST', '/v1/autotrain/insights', { json: { team_id: null, req: { summary, goal: 'size by color '.repeat(200) } } });
    refused(goal, 422, ['req.goal']);
    const fits = await env.call('POST', '/v1/autotrain/generate_goals', { json: { team_id: null, req: { summary, n: 2, persona: 'p'.repeat(2000) } } });
    assert.equal(fits.status, 200, JSON.stringify(fits.body).slice(0, 300));
  });

  it('answers 422 naming a JSON string of a model payload or a form that nests too deep', async () => {
    const deepText = JSON.stringify({ a: nestedArray(MAX_JSON_DEPTH + 10) }).replace(/\s/g, '');
    const create = await env.call('POST', '/v1/models/create', {
      json: { name: 'deep', type: 'regression', target_name: 'y', algorithm: 'XRegressor', partitions: [{ partition: '__dataset__', columns: [], base_value: 0, profile: deepText, feature_importances: {} }] },
    });
    refused(create, 422, ['partitions.0.profile', `${MAX_JSON_DEPTH} levels`]);
    const form = new FormData();
    form.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'small.csv');
    form.append('textgen_config', deepText);
    const before = await state();
    refused(await env.call('POST', '/v1/autotrain/summarize-dataset', { body: form }), 422, ['textgen_config', `${MAX_JSON_DEPTH} levels`]);
    assert.deepEqual(await state(), before);
  });

  it('answers 422 naming an unknown field and the field it probably meant, leaving nothing behind', async () => {
    const before = await state();
    const typo = refused(await train({ max_dept: 3 }), 422, ['max_dept', 'did you mean max_depth?']);
    assert.deepEqual(typo.error.fields?.[0], { path: 'max_dept', message: 'unknown field: max_dept (did you mean max_depth?)' });
    refused(await train({ foo_bar: 1 }), 422, ['foo_bar']);
    refused(await train({ callbacks: 0 }), 422, ['callbacks']);
    refused(await train({ targetColumn: 'label', target_column: undefined }), 422, ['targetColumn (did you mean target_column?)']);
    refused(await env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, { json: { csv_content: 'x\n1\n', explian: true } }), 422, ['explian (did you mean explain?)']);
    assert.deepEqual(await state(), before);
  });

  it('names unknown fields inside a request: an autotrain config, a preprocessor step, a data source, a form', async () => {
    const goals = await env.call('POST', '/v1/autotrain/summarize', { json: { team_id: null, req: { dataset_id: datasetId, textgen_config: { modle: 'gpt' } } } });
    assert.equal(refused(goals, 422, ['req.textgen_config', 'modle (did you mean model?)']).error.fields?.[0].path, 'req.textgen_config.modle');
    const step = await env.call('POST', '/v1/preprocessors', { json: { name: 'p', dataset_id: datasetId, steps: [{ type: 'fill_missing', column: 'x', strategy: 'constant', valeu: 0 }] } });
    refused(step, 422, ['steps.0', 'valeu (did you mean value?)']);
    refused(await env.call('POST', '/v1/datasets', { json: { source: { connection: 'sales', tabel: 'orders' } } }), 422, ['source', 'tabel (did you mean table?)']);
    // Without the {team_id, req} envelope the sentence says what is missing too.
    refused(await env.call('POST', '/v1/autotrain/generate_labels', { json: { summary: {} } }), 422, ['summary', 'req is required']);

    const before = await state();
    const form = new FormData();
    form.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'small.csv');
    form.append('nmae', 'typo');
    refused(await env.call('POST', '/v1/datasets', { body: form }), 422, ['nmae (did you mean name?)']);
    const misnamed = new FormData();
    misnamed.append('files', new Blob([smallCsv()], { type: 'text/csv' }), 'small.csv');
    refused(await env.call('POST', '/v1/autotrain/summarize-dataset', { body: misnamed }), 422, ['files (did you mean file?)']);
    const textgen = new FormData();
    textgen.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'small.csv');
    textgen.append('textgen_config', JSON.stringify({ provider: 'rules', temprature: 0 }));
    refused(await env.call('POST', '/v1/autotrain/summarize-dataset', { body: textgen }), 422, ['textgen_config', 'temprature (did you mean temperature?)']);
    assert.deepEqual(await state(), before);
  });

  it('answers 413 naming the limit for a form of too many or too long fields, keeping no file', async () => {
    const before = await state();
    const many = new FormData();
    many.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'small.csv');
    for (let i = 0; i < 11; i++) many.append(`f${i}`, 'x');
    refused(await env.call('POST', '/v1/datasets', { body: many }), 413, ['more than 10 text fields']);
    const long = new FormData();
    long.append('name', 'x'.repeat(1024 * 1024 + 1));
    long.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'small.csv');
    refused(await env.call('POST', '/v1/datasets', { body: long }), 413, ['name is longer than 1048576 bytes']);
    const twoFiles = new FormData();
    twoFiles.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'a.csv');
    twoFiles.append('file', new Blob([smallCsv()], { type: 'text/csv' }), 'b.csv');
    refused(await env.call('POST', '/v1/autotrain/summarize-dataset', { body: twoFiles }), 413, ['more than one file']);
    assert.deepEqual(await state(), before);
  });

  it('accepts the fields clients of the reference service send, ignores them and says so where the answer has warnings', async () => {
    const trainedWithTeam = await train({ team_id: 'another-team' });
    assert.equal(trainedWithTeam.status, 200, JSON.stringify(trainedWithTeam.body));
    assert.ok(trainedWithTeam.body.warnings.some((w: string) => /^team_id is ignored: the team is the API key's default team/.test(w)), trainedWithTeam.body.warnings);
    const models = (await env.call('GET', `/v1/models/teams/${env.service.teamId}`)).body as { model_id: string }[];
    assert.ok(models.some((m) => m.model_id === trainedWithTeam.body.model_id), 'trained in the session team');

    const quiet = await train({ team_id: null });
    assert.equal(quiet.status, 200);
    assert.ok(!quiet.body.warnings.some((w: string) => w.startsWith('team_id')), 'a null field carries nothing to ignore');

    const predicted = await env.call('POST', `/v1/models/versions/${trained.version_id}/predict`, { json: { csv_content: smallCsv(5), team_id: 't' } });
    assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
    assert.match(PredictionsSchema.parse(predicted.body).warnings[0], /^team_id is ignored/);

    const payload = (await env.call('GET', `/v1/models/versions/${trained.version_id}/payload`)).body;
    const created = await env.call('POST', '/v1/models/create', {
      json: { name: 'uploaded', type: 'binary_classification', target_name: 'label', algorithm: 'XClassifier', run_id: 'run-7', versions: { '1': 'first' }, team_id: 't', partitions: payload.partitions },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const versions = (await env.call('GET', `/v1/models/versions/${created.body.model_id}`)).body;
    assert.ok(!JSON.stringify(versions).includes('run-7'), 'an ignored field is not stored');
  });
});
