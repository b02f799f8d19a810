import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelPayloadSchema, PredictionsSchema } from '../../../src/contract';
import { scoredColumn, scoringTablesFromPayload, toPython } from '../../../src/modelExport';
import { DATASETS, useService } from '../service/harness';
import { assertClassesMatch, assertMatches, csvField, penguinRows, runMulticlassSql, runPython, runSql, sqlRuns, usePostgres, type ScoredClasses } from './exportHarness';

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

  it('a date feature (cars Year) scores in Python as the service reads dates, written in every form it reads', async () => {
    const [header, ...lines] = readFileSync(join(DATASETS, 'cars.csv'), 'utf8').trim().split('\n');
    const year = header.split(',').indexOf('Year');
    const train = [header, ...lines.filter((_, i) => i % 4 !== 0)].join('\n');
    const withYear = (line: string, text: string) => line.split(',').map((v, i) => (i === year ? csvField(text) : v)).join(',');
    const forms = ['1975/03/04', '1976-5-1 7:05', '1977-06-01T10:30:00.5+01:00', '1978-02-30 23:59:59.999-0130', '1979-07-01Z', 'March 4, 1980',
      'Sept. 9 1981', 'jan 1 1982', '0071-06-01', ' 1974-01-01 ', '1981-13-01', 'n/a', '1980'];
    const heldOut = [header, ...lines.filter((_, i) => i % 4 === 0), ...forms.map((text, i) => withYear(lines[i * 7], text))].join('\n');
    const trained = await env.call('POST', '/v1/models/train', {
      json: { target_column: 'Miles_per_Gallon', model_name: 'mpg', csv_content: train, model_type: 'regressor', drop_columns: ['Name'] },
    });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    const payload = await env.call('GET', `/v1/models/versions/${trained.body.version_id}/payload`);
    const tables = scoringTablesFromPayload(ModelPayloadSchema.parse(payload.body), 'mpg v1');
    assert.ok(tables.modelType !== 'multiclass' && tables.features.includes('Year'));
    const predicted = await env.call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { csv_content: heldOut, explain: true } });
    assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
    const service = PredictionsSchema.parse(predicted.body);
    const years = new Set(service.contributions!.Year);
    assert.ok(years.size >= 5, `the service reads the years as dates: ${[...years].join(', ')}`);
    assertMatches(runPython(toPython(tables), heldOut), service, tables, 'Python');
  });

  it('names the contributions of two features whose names share their first 63 bytes apart, alike in every dialect', async () => {
    // Names that fit in 63 bytes, but their contributions' columns share 70 bytes before they differ (ß and — take two and
    // three bytes), so PostgreSQL would cut both to the same name.
    const prefix = 'Schnabelmaß — gemessen am lebenden Pinguin im Feld ';
    assert.ok(Buffer.byteLength(`xm_contribution_${prefix}`) > 63 && Buffer.byteLength(`${prefix}Länge`) <= 63);
    const long = { 'Beak Length (mm)': `${prefix}Länge`, 'Beak Depth (mm)': `${prefix}Tiefe` };
    const renamed = (csv: string) => {
      const [header, ...rows] = csv.split('\n');
      return [header.split(',').map((name) => long[name as keyof typeof long] ?? name).join(','), ...rows].join('\n');
    };
    for (const target of ['Sex', 'Species']) {
      const { train, heldOut: original } = penguinRows(target);
      const heldOut = renamed(original);
      const trained = await env.call('POST', '/v1/models/train', { json: { target_column: target, model_name: `long names ${target}`, csv_content: renamed(train), model_type: 'classifier' } });
      assert.equal(trained.status, 200, JSON.stringify(trained.body));
      const payload = ModelPayloadSchema.parse((await env.call('GET', `/v1/models/versions/${trained.body.version_id}/payload`)).body);
      const tables = scoringTablesFromPayload(payload, `long names ${target}`);
      const predicted = await env.call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { csv_content: heldOut, explain: true } });
      assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
      const service = PredictionsSchema.parse(predicted.body);
      const columns = tables.modelType === 'multiclass' ? tables.classes.flatMap((c) => Object.values(long).map((f) => scoredColumn('contribution', c, f))) : Object.values(long).map((f) => scoredColumn('contribution', f));
      for (const column of columns) assert.ok(Buffer.byteLength(column) <= 63, `${column} fits in 63 bytes`);
      assert.equal(new Set(columns.map((c) => Buffer.from(c).subarray(0, 63).toString())).size, columns.length, `apart within 63 bytes: ${columns.join(', ')}`);
      for (const { what, query, engine } of sqlRuns(tables, postgresClient)) {
        if (tables.modelType === 'multiclass') assertClassesMatch(await runMulticlassSql(engine, query, heldOut, tables), service, tables, `${target}, ${what}`);
        else assertMatches(await runSql(engine, query, heldOut, tables), service, tables, `${target}, ${what}`);
      }
    }
  });

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
