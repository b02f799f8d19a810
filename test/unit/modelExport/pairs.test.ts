import assert from 'node:assert/strict';
import { ModelPayloadSchema, PredictionsSchema } from '../../../src/contract';
import { scoringTablesFromPayload, toPython, toSql, type ScoringTables } from '../../../src/modelExport';
import { useService } from '../service/harness';
import {
  assertClassesMatch,
  assertMatches,
  pairBounds,
  pairRows,
  runMulticlassSql,
  runPython,
  runSql,
  sqlRuns,
  usePostgres,
  type PairTarget,
  type ScoredClasses,
} from './exportHarness';

/** The two pair terms the data holds, named as the service names them (features in training order). */
const PAIRS = ['x1 × x2', 'x3 × group'];

describe('model export: pair terms score in Python and SQL as in the service', function () {
  this.timeout(180_000);
  const env = useService();
  const postgresClient = usePostgres();

  async function trainAndPredict(name: string, target: PairTarget, body: Record<string, unknown>) {
    const { train } = pairRows(target);
    const trained = await env.call('POST', '/v1/models/train', {
      json: { target_column: 'target', model_name: name, csv_content: train, method: 'boosted', ...body },
    });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    const payload = await env.call('GET', `/v1/models/versions/${trained.body.version_id}/payload`);
    assert.equal(payload.status, 200, JSON.stringify(payload.body));
    const tables = scoringTablesFromPayload(ModelPayloadSchema.parse(payload.body), `${name} v1`);
    // Held-out values on every numeric bound of the pairs' bins test that a bin holds its upper bound.
    const { heldOut } = pairRows(target, pairBounds(tables));
    const predicted = await env.call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { csv_content: heldOut, explain: true } });
    assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
    return { tables, heldOut, service: PredictionsSchema.parse(predicted.body) };
  }

  /** The pairs of the data are pair terms of every partition of the model. */
  function assertHasPairs(tables: ScoringTables, what: string, pairs = PAIRS): void {
    for (const p of tables.partitions) {
      const names = p.scorer.pairs.map((pair) => pair.name);
      for (const pair of pairs) assert.ok(names.includes(pair), `${what}, partition ${p.key}: a pair term ${pair} (has ${names.join(', ')})`);
    }
  }

  const binaryCases = [
    { name: 'boosted classifier', target: 'classifier', body: { model_type: 'classifier' } },
    { name: 'boosted regressor', target: 'regressor', body: { model_type: 'regressor' } },
    { name: 'boosted classifier partitioned by region', target: 'classifier', body: { model_type: 'classifier', partition_on: 'region' } },
  ] as const;
  for (const c of binaryCases) {
    it(`${c.name}: every held-out row's pair contributions, score and prediction are the service's in Python, SQLite, PostgreSQL and DuckDB`, async () => {
      const { tables, heldOut, service } = await trainAndPredict(c.name, c.target, c.body);
      assert.ok(tables.modelType !== 'multiclass');
      assert.equal(tables.partitions.length, 'partition_on' in c.body ? 3 : 1);
      assertHasPairs(tables, c.name);
      assert.ok(service.interaction_contributions, 'the service explains the pair terms');
      const python = toPython(tables);
      assert.ok(python.includes(`PAIRS = (${tables.pairs.map((p) => JSON.stringify(p)).join(', ')})`), 'the Python lists the pair terms');
      const scored = runPython(python, heldOut);
      assert.ok(scored.some((row) => PAIRS.every((pair) => row.interaction_contributions?.[pair] !== 0)), 'the pairs contribute');
      assertMatches(scored, service, tables, 'Python');
      assert.match(toSql(tables), /AS "xm_interaction_x1 × x2"/);
      for (const { what, query, engine } of sqlRuns(tables, postgresClient)) assertMatches(await runSql(engine, query, heldOut, tables), service, tables, what);
    });
  }

  it('boosted multiclass classifier: every class has its own pair terms, and every held-out row scores as in the service in Python, SQLite, PostgreSQL and DuckDB', async () => {
    const { tables, heldOut, service } = await trainAndPredict('boosted multiclass', 'multiclass', { model_type: 'classifier' });
    assert.ok(tables.modelType === 'multiclass');
    assert.deepEqual([...tables.classes].sort(), ['blue', 'green', 'red']);
    // green is the rows where x3 and group disagree; red and blue split the others by x1 and x2.
    const pairsOf: Record<string, string[]> = { red: PAIRS, blue: PAIRS, green: ['x3 × group'] };
    tables.classTables.forEach((t, k) => assertHasPairs(t, `class ${tables.classes[k]}`, pairsOf[tables.classes[k]]));
    assert.ok(service.class_interaction_contributions, 'the service explains the pair terms');
    const python = toPython(tables);
    const scored = runPython(python, heldOut) as unknown as ScoredClasses[];
    assertClassesMatch(scored, service, tables, 'Python');
    for (const { what, query, engine } of sqlRuns(tables, postgresClient)) assertClassesMatch(await runMulticlassSql(engine, query, heldOut, tables), service, tables, what);
  });
});
