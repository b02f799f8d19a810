import assert from 'node:assert/strict';
import { ModelPayloadSchema, PredictionsSchema } from '../../../src/contract';
import { scoringTablesFromPayload, toPython } from '../../../src/modelExport';
import { frameCsv, objectiveFrame, type ObjectiveTask } from '../engine/objectiveTasks';
import { useService } from '../service/harness';
import { assertMatches, runPython, runSql, sqlRuns, usePostgres } from './exportHarness';

function taskCsv(task: ObjectiveTask, rows: number, seed: number, edit?: (line: string[], row: number) => string[]): string {
  return frameCsv(objectiveFrame(task, rows, seed), edit);
}

describe('model export: objectives with a log link and an exposure', function () {
  this.timeout(120_000);
  const env = useService();
  const postgresClient = usePostgres();

  for (const [task, objective, extra] of [
    ['frequency', 'poisson', { exposure_column: 'exposure' }],
    ['premium', 'tweedie', { exposure_column: 'exposure', tweedie_power: 1.4 }],
    ['quantile', 'quantile', { quantile_alpha: 0.9 }],
  ] as const) {
    it(`${objective}: held-out rows (one without an exposure, one at 0) score the same in Python, SQLite, PostgreSQL, DuckDB and the service`, async () => {
      const trained = await env.call('POST', '/v1/models/train', {
        json: { target_column: 'y', model_name: objective, csv_content: taskCsv(task, 3000, 31), model_type: 'regressor', objective, drop_columns: ['weight'], ...extra },
      });
      assert.equal(trained.status, 200, JSON.stringify(trained.body));
      const payload = await env.call('GET', `/v1/models/versions/${trained.body.version_id}/payload`);
      const tables = scoringTablesFromPayload(ModelPayloadSchema.parse(payload.body), objective);
      assert.ok(tables.modelType === 'regressor');
      assert.equal(tables.link, 'exposure_column' in extra ? 'exp' : 'range');
      const [header, ...lines] = taskCsv(task, 60, 32).split('\n');
      const at = header.split(',').indexOf('exposure');
      const heldOut = [header, ...lines.map((line, i) => (i < 2 ? line.split(',').map((v, c) => (c === at ? ['', '0'][i] : v)).join(',') : line))].join('\n');
      const predicted = await env.call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { csv_content: heldOut, explain: true } });
      assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
      const service = PredictionsSchema.parse(predicted.body);
      assertMatches(runPython(toPython(tables), heldOut), service, tables, 'Python');
      for (const { what, query, engine } of sqlRuns(tables, postgresClient)) assertMatches(await runSql(engine, query, heldOut, tables), service, tables, what);
    });
  }
});
