import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { ModelPayloadSchema, PredictionsSchema } from '../../../src/contract';
import { scoringTablesFromPayload, toPython, toSql, type ExportTables } from '../../../src/modelExport';
import { useService } from '../service/harness';
import { assertClassesMatch, assertMatches, csvCells, csvField, pairBounds, pairRows, penguinRows, runMulticlassSql, runPython, runSql, sqlRuns, usePostgres, type ScoredClasses } from './exportHarness';

/**
 * Penguins columns renamed to names that would end a docstring, a comment or a literal, or hide code from a reader:
 * triple quotes, line breaks, `--`, block comment ends, backslash escapes (`\N{…}` is a syntax error in a Python
 * string), line separators and right-to-left marks. They are short, so that the SQL export's `xm_…` columns stay
 * within PostgreSQL's 63-byte names.
 */
const COLUMNS: Readonly<Record<string, string>> = {
  Species: 'Sp"""\nimport os',
  Island: "Is'''\n--*/;\u202e",
  'Beak Length (mm)': 'Be\\N{X}\\x41"',
  'Beak Depth (mm)': 'De\r\nprint(1)#',
  'Flipper Length (mm)': "Fl\u2028\u2066'''",
  'Body Mass (g)': 'Ma -- /* */"',
  Sex: 'Sex\n"""raise',
};

/** The columns of the data with pair terms (pairRows), renamed likewise. */
const PAIR_COLUMNS: Readonly<Record<string, string>> = {
  x1: 'x1"""\nimport os',
  x2: "x2'''\n--*/;\u202e",
  x3: 'x3\\N{X}\\x41"',
  group: 'gr\r\nprint(1)#',
  noise: "no\u2028\u2066'''",
  region: 're -- /* */"',
  target: 'ta\n"""raise',
};

/** Values renamed likewise: classes, labels, partition keys and the categories of a pair term are written into the code too. */
const VALUES: Readonly<Record<string, string>> = {
  Adelie: 'Ad"""',
  Chinstrap: "Ch'\n--",
  Gentoo: 'Ge\\N\u202e',
  Unknown: "Un'''*/",
  Biscoe: 'Bi"""\n\'--',
  Dream: "Dr'''*/",
  Torgersen: 'To\u202e\\',
  Atlantis: 'At\r\n"""',
  MALE: 'M\n"""x',
  FEMALE: "F'--*/",
  Alpha: 'Al"""\n',
  Beta: "Be'--*/",
  Gamma: 'Ga\\N\u202e',
  Delta: "De'''",
  Omega: 'Om\r\n"""',
  North: 'No"""\n\'--',
  South: "So'''*/",
  West: 'We\u202e\\',
  yes: 'y\n"""x',
  no: "n'--*/",
};

const TITLE = 'T """\nimport sys; sys.exit(7)\n"""--*/ \\N{X} \u202e';

/**
 * Rows to train on and score, by their plain names: their columns' hostile names, the column the models are partitioned
 * on and its values; the held-out rows may depend on the tables of the trained model.
 */
interface HostileData {
  columns: Readonly<Record<string, string>>;
  partitionOn: string;
  partitions: string[];
  rows(target: string, tables?: ExportTables): { train: string; heldOut: string };
}

const PENGUINS: HostileData = { columns: COLUMNS, partitionOn: 'Island', partitions: ['Biscoe', 'Dream', 'Torgersen'], rows: (target) => penguinRows(target) };

/** A name with a NUL character: the engine takes it from a CSV header; Python scores it, SQL engines end a statement there. */
const NUL_COLUMNS = { ...COLUMNS, 'Beak Length (mm)': 'Be\0ak' };

/** A classifier's rows with two pair terms; the held-out rows include values on their bins' bounds. */
const PAIR_DATA: HostileData = {
  columns: PAIR_COLUMNS,
  partitionOn: 'region',
  partitions: ['North', 'South'],
  rows: (_target, tables) => pairRows('classifier', tables ? pairBounds(tables) : []),
};

/** Characters that must not appear in generated code as they are (line feeds apart). */
const HIDDEN = /[\0\r\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

function renamedCsv(csv: string, columns: Readonly<Record<string, string>>): string {
  const { header, rows } = csvCells(csv);
  const records = [header.map((h) => columns[h]), ...rows.map((r) => r.map((v) => (v === null ? '' : (VALUES[v] ?? v))))];
  return records.map((r) => r.map(csvField).join(',')).join('\n');
}

/** The same tables with every hostile name replaced by a plain one (a one-to-one renaming). */
function plainTables(tables: ExportTables, columns: Readonly<Record<string, string>>): ExportTables {
  const hostile = [TITLE + ' v1', ...Object.values(columns), ...Object.values(VALUES)];
  const plain = new Map(hostile.map((name, i) => [name, `name_${i}`]));
  const rename = (value: unknown): unknown => {
    if (typeof value === 'string') return plain.get(value) ?? value;
    if (Array.isArray(value)) return value.map(rename);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v)]));
    return value;
  };
  return rename(tables) as ExportTables;
}

interface PythonShape {
  docstring: string;
  /** The module's syntax tree with every string constant emptied. */
  shape: string;
  constants: Record<string, unknown>;
}

/** Reads the module with Python's own parser (never running it): its docstring, its shape and its name constants. */
function pythonShape(source: string): PythonShape {
  const reader = [
    'import ast, json, sys',
    'tree = ast.parse(sys.stdin.read())',
    'constants = {}',
    'for node in tree.body:',
    '    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id in ("TARGET", "PARTITION_ON", "PARTITIONS", "FEATURES", "PAIRS", "CLASSES", "LABELS"):',
    '        constants[node.targets[0].id] = ast.literal_eval(node.value)',
    'class Empty(ast.NodeTransformer):',
    '    def visit_Constant(self, node):',
    '        return ast.Constant("") if isinstance(node.value, str) else node',
    'docstring = ast.get_docstring(tree, clean=False)',
    'print(json.dumps({"docstring": docstring, "shape": ast.dump(Empty().visit(tree)), "constants": constants}))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', reader], { input: source, encoding: 'utf8' })) as PythonShape;
}

/** A comment (to its line's end), a string literal or a quoted identifier of the generated SQL. */
const SQL_TOKEN = /--[^\n]*|'(?:[^']|'')*'|"(?:[^"]|"")*"/g;
/** The query with every comment, literal and quoted name emptied: what the database parses as code. */
const sqlShape = (query: string): string => query.replace(SQL_TOKEN, (token) => (token.startsWith('--') ? '--' : token[0].repeat(2)));

describe('model export: names that look like code stay names', function () {
  this.timeout(120_000);
  const env = useService();
  const postgresClient = usePostgres();

  async function trainAndPredict(target: string, body: Record<string, unknown>, data = PENGUINS) {
    const { columns } = data;
    const trained = await env.call('POST', '/v1/models/train', {
      json: { target_column: columns[target], model_name: TITLE, csv_content: renamedCsv(data.rows(target).train, columns), partition_on: columns[data.partitionOn], ...body },
    });
    assert.equal(trained.status, 200, JSON.stringify(trained.body));
    const payload = await env.call('GET', `/v1/models/versions/${trained.body.version_id}/payload`);
    assert.equal(payload.status, 200, JSON.stringify(payload.body));
    const tables = scoringTablesFromPayload(ModelPayloadSchema.parse(payload.body), `${TITLE} v1`);
    const heldOut = renamedCsv(data.rows(target, tables).heldOut, columns);
    const predicted = await env.call('POST', `/v1/models/versions/${trained.body.version_id}/predict`, { json: { csv_content: heldOut, explain: true } });
    assert.equal(predicted.status, 200, JSON.stringify(predicted.body));
    return { tables, heldOut, service: PredictionsSchema.parse(predicted.body) };
  }

  /** The Python parses to the same code as with plain names, holds every name exactly, and hides nothing. */
  function assertPythonKeepsNames(tables: ExportTables, data: HostileData): string {
    const { columns } = data;
    const python = toPython(tables);
    assert.doesNotMatch(python, HIDDEN, 'no hidden or line-breaking character is written as it is');
    const read = pythonShape(python);
    assert.equal(read.shape, pythonShape(toPython(plainTables(tables, columns))).shape, 'the same statements and expressions as with plain names');
    assert.equal(read.docstring.split('\n').length, pythonShape(toPython(plainTables(tables, columns))).docstring.split('\n').length, 'names add no docstring line');
    assert.ok(read.docstring.startsWith('T " " "\\nimport sys; sys.exit(7)\\n" " "- -* / \\N{X} \\u202e v1: an XModels '), read.docstring.split('\n')[0]);
    assert.equal(read.constants.TARGET, tables.target);
    assert.equal(read.constants.PARTITION_ON, columns[data.partitionOn]);
    assert.deepEqual(read.constants.FEATURES, tables.features);
    const partitions = tables.modelType === 'multiclass' ? tables.classTables[0].partitions : tables.partitions;
    assert.deepEqual(read.constants.PARTITIONS, partitions.map((p) => p.key));
    assert.deepEqual(partitions.map((p) => p.key).sort(), ['__dataset__', ...data.partitions.map((v) => VALUES[v])].sort(), 'every value is a partition');
    if (tables.modelType === 'multiclass') assert.deepEqual(read.constants.CLASSES, tables.classes);
    if (tables.modelType === 'classifier') assert.deepEqual(read.constants.LABELS, tables.labels);
    if (tables.modelType !== 'multiclass' && tables.pairs.length) assert.deepEqual(read.constants.PAIRS, tables.pairs);
    return python;
  }

  /** In every dialect the query parses to the same code as with plain names; comments are single lines that hide nothing. */
  function assertSqlKeepsNames(tables: ExportTables, columns: Readonly<Record<string, string>>): void {
    for (const dialect of ['sqlite', 'postgres', 'duckdb'] as const) {
      const query = toSql(tables, dialect);
      assert.equal(sqlShape(query), sqlShape(toSql(plainTables(tables, columns), dialect)), `${dialect}: the same query as with plain names`);
      const comments = [...query.matchAll(SQL_TOKEN)].map((m) => m[0]).filter((token) => token.startsWith('--'));
      for (const comment of comments) assert.doesNotMatch(comment, HIDDEN, `${dialect}: ${comment}`);
      assert.doesNotMatch(query.replace(SQL_TOKEN, ''), HIDDEN, `${dialect}: only names and values hold such characters`);
    }
  }

  const binaryCases = [
    { name: 'boosted classifier partitioned by island', target: 'Sex', body: { model_type: 'classifier', method: 'boosted' } },
    { name: 'xplainable regressor partitioned by island', target: 'Body Mass (g)', body: { model_type: 'regressor', method: 'xplainable' } },
  ];
  for (const c of binaryCases) {
    it(`${c.name}: the Python and the SQL keep every name as a name, run, and score held-out rows as the service does`, async () => {
      const { tables, heldOut, service } = await trainAndPredict(c.target, c.body);
      assert.ok(tables.modelType !== 'multiclass');
      assert.equal(tables.target, COLUMNS[c.target]);
      assert.ok(tables.partitions.length > 1, 'partitioned by the island column');
      const python = assertPythonKeepsNames(tables, PENGUINS);
      assertSqlKeepsNames(tables, COLUMNS);
      assertMatches(runPython(python, heldOut), service, tables, 'Python');
      for (const { what, query, engine } of sqlRuns(tables, postgresClient)) assertMatches(await runSql(engine, query, heldOut, tables), service, tables, what);
    });
  }

  it('xplainable multiclass classifier partitioned by island: the Python and the SQL keep every name and class as such, run, and score as the service does', async () => {
    const { tables, heldOut, service } = await trainAndPredict('Species', { model_type: 'classifier', method: 'xplainable' });
    assert.ok(tables.modelType === 'multiclass');
    assert.deepEqual(tables.classes, [VALUES.Adelie, VALUES.Chinstrap, VALUES.Gentoo]);
    const python = assertPythonKeepsNames(tables, PENGUINS);
    assertSqlKeepsNames(tables, COLUMNS);
    assertClassesMatch(runPython(python, heldOut) as unknown as ScoredClasses[], service, tables, 'Python');
    for (const { what, query, engine } of sqlRuns(tables, postgresClient)) assertClassesMatch(await runMulticlassSql(engine, query, heldOut, tables), service, tables, what);
  });

  it('pair terms of hostile-named features, numeric and categorical, partitioned: the Python and the SQL keep every name as a name, run, and score held-out rows as the service does', async () => {
    const { tables, heldOut, service } = await trainAndPredict('target', { model_type: 'classifier', method: 'boosted' }, PAIR_DATA);
    assert.ok(tables.modelType === 'classifier');
    const pairs = [`${PAIR_COLUMNS.x1} × ${PAIR_COLUMNS.x2}`, `${PAIR_COLUMNS.x3} × ${PAIR_COLUMNS.group}`];
    for (const p of tables.partitions) {
      for (const pair of pairs) assert.ok(p.scorer.pairs.some((t) => t.name === pair), `partition ${p.key}: a pair term ${pair}`);
    }
    assert.ok(tables.partitions[0].scorer.pairs.some((t) => t.axes[1].kind === 'categorical' && t.axes[1].groups.flat().includes(VALUES.Alpha)), 'a pair term groups hostile categories');
    const python = assertPythonKeepsNames(tables, PAIR_DATA);
    assertSqlKeepsNames(tables, PAIR_COLUMNS);
    assertMatches(runPython(python, heldOut), service, tables, 'Python');
    for (const { what, query, engine } of sqlRuns(tables, postgresClient)) assertMatches(await runSql(engine, query, heldOut, tables), service, tables, what);
  });

  it('a feature named with a NUL character: the Python keeps it and scores as the service does; the SQL holds it only inside a quoted name', async () => {
    const { tables, heldOut, service } = await trainAndPredict('Sex', { model_type: 'classifier', method: 'boosted' }, { ...PENGUINS, columns: NUL_COLUMNS });
    assert.ok(tables.modelType === 'classifier');
    assert.ok(tables.features.includes('Be\0ak'));
    const python = assertPythonKeepsNames(tables, { ...PENGUINS, columns: NUL_COLUMNS });
    assert.ok(python.includes('"Be\\x00ak"'));
    assertMatches(runPython(python, heldOut), service, tables, 'Python');
    assertSqlKeepsNames(tables, NUL_COLUMNS);
  });
});
