import assert from 'node:assert/strict';
import { ModelPayloadSchema, PredictionsSchema } from '../../../src/contract';
import { scoringTablesFromPayload, toPython } from '../../../src/modelExport';
import { useService } from '../service/harness';
import { assertClassesMatch, assertMatches, penguinRows, runMulticlassSql, runPython, runSql, sqlRuns, usePostgres, type ScoredClasses } from './exportHarness';

describe('model export: Python and SQL reproduce the service', function () {
  this.timeout(120_000);
  const env = useService();
  const postgresClient = usePostgres();

  const cases = [
    { name: 'boosted classifier', target: 'Sex', model_type: 'classifier', method: 'boosted' },
    { name: 'xplainable classifier', target: 'Sex', model_type: 'classifier', method: 'xplainable' },
    { name: 'boosted regressor', target: 'Body Mass (g)', model_type: 'regressor', method: 'boosted' },
    { name: 'xplainable regressor partitioned by island', target: 'Body Mass (g)', model_type: 'regressor', method: 'xplainable', partition_on: 'Island' },
    { name: 'boosted classifier partitioned by island', target: 'Sex', model_type: 'classifier', method: 'boosted', partition_on: 'Island' },
    { name: 'boosted multiclass classifier', target: 'Species', model_type: 'classifier', method: 'boosted' },
    { name: 'xplainable multiclass classifier partitioned by island', target: 'Species', model_type: 'classifier', method: 'xplainable', partition_on: 'Island' },
  ] as const;

  async function trainAndPredict(c: (typeof cases)[number]) {
    const { train, heldOut } = penguinRows(c.target);
    const trained = await env.call('POST', '/v1/models/train', {
      json: { target_column: c.target, model_name: c.name, csv_content: train, model_type: c.model_type, method: c.method, ...('partition_on' in c ? { partition_on: c.partition_on } : {}) },
    });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    const payload = await env.call('GET', `/v1/models/versions/${trained.body.version_id}/payload`);
    assert.equal(payload.status, 200, JSON.stringify(payload.body));
    const tables = scoringTablesFromPayload(ModelPayloadSchema.parse(payload.body), `${c.name} v1`);
    assert.equal(tables.method, c.method);
    const predicted = await env.call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { csv_content: heldOut, explain: true } });
    assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
    return { tables, heldOut, service: PredictionsSchema.parse(predicted.body) };
  }

  for (const c of cases.filter((x) => x.target !== 'Species')) {
    it(`${c.name}: held-out rows score the same in Python, in SQLite, PostgreSQL and DuckDB, and in the service`, async () => {
      const { tables, heldOut, service } = await trainAndPredict(c);
      assert.ok(tables.modelType !== 'multiclass');
      assert.equal(tables.partitions.length > 1, 'partition_on' in c, 'partitions are exported');
      const python = toPython(tables);
      for (const feature of tables.features) assert.ok(python.includes(JSON.stringify(feature)), `the Python names ${feature}`);
      assertMatches(runPython(python, heldOut), service, tables, 'Python');
      for (const { what, query, engine } of sqlRuns(tables, postgresClient)) assertMatches(await runSql(engine, query, heldOut, tables), service, tables, what);
    });
  }

  for (const c of cases.filter((x) => x.target === 'Species')) {
    it(`${c.name}: held-out rows get the same class probabilities, class and contributions in Python, in SQLite, PostgreSQL and DuckDB, and in the service`, async () => {
      const { tables, heldOut, service } = await trainAndPredict(c);
      assert.ok(tables.modelType === 'multiclass');
      assert.deepEqual(tables.classes, ['Adelie', 'Chinstrap', 'Gentoo']);
      assert.equal(tables.classTables[0].partitions.length > 1, 'partition_on' in c, 'partitions are exported');
      const python = toPython(tables);
      assert.ok(python.includes('CLASSES = ("Adelie", "Chinstrap", "Gentoo")'));
      assertClassesMatch(runPython(python, heldOut) as unknown as ScoredClasses[], service, tables, 'Python');
      for (const { what, query, engine } of sqlRuns(tables, postgresClient)) assertClassesMatch(await runMulticlassSql(engine, query, heldOut, tables), service, tables, what);
    });
  }
});
