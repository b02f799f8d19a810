import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChartKindSchema,
  VisualizationLibrarySchema,
  VisualizationResponseSchema,
  withDataPath,
  type ChartSpec,
  type VisualizationLibrary,
} from '../../../../src/contract/autotrain';
import { AutotrainInputError, RULES_CONTEXT, visualizeData } from '../../../../src/autotrain';
import { DATA_DIR, ruleSummary } from '../helpers';

/** Goals on weather.csv that reach every chart kind and variant. */
const GOALS: Record<string, string> = {
  histogram: 'histogram of wind',
  'bar (count)': 'bar chart of counts of weather',
  'bar (mean)': 'bar chart of mean precipitation by weather',
  scatter: 'scatter plot of temp_min vs temp_max',
  'line (mean)': 'line chart of temp_max over date',
  'line (count)': 'line chart of rows per date',
  'box (grouped)': 'box plot of wind by weather',
  'box (single)': 'box plot of wind',
  'heatmap (correlation)': 'heatmap of correlations between precipitation, temp_max, temp_min, wind',
  'heatmap (count)': 'heatmap of location by weather',
};
const LIBRARIES = VisualizationLibrarySchema.options;
const MODULES: Record<VisualizationLibrary, string> = { plotly: 'plotly.express', matplotlib: 'matplotlib', seaborn: 'seaborn' };

function python(args: string[], input?: string, interpreter = 'python3'): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync(interpreter, args, { input, encoding: 'utf8', timeout: 300_000, env: { ...process.env, MPLBACKEND: 'Agg' } });
  return { status: r.status, stderr: r.stderr ?? String(r.error), stdout: r.stdout ?? '' };
}

/** The first interpreter on which pandas and the library import, or null. */
function interpreterFor(library: VisualizationLibrary): string | null {
  for (const candidate of ['python3', '/usr/bin/python3']) {
    if (python(['-c', `import pandas, ${MODULES[library]}`], undefined, candidate).status === 0) return candidate;
  }
  return null;
}

const runnable = LIBRARIES.map((library) => ({ library, interpreter: interpreterFor(library) })).filter(
  (x): x is { library: VisualizationLibrary; interpreter: string } => x.interpreter !== null,
);
console.log(`visualization run-checks for: ${runnable.map((r) => `${r.library} (${r.interpreter})`).join(', ') || 'none (no Python plotting library found)'}`);

async function codeFor(library: VisualizationLibrary): Promise<Map<string, { code: string; chart: ChartSpec }>> {
  const { frame, summary } = await ruleSummary('weather.csv');
  const out = new Map<string, { code: string; chart: ChartSpec }>();
  for (const [name, goal] of Object.entries(GOALS)) {
    const v = await visualizeData(summary, goal, library, RULES_CONTEXT, frame);
    out.set(name, { code: v.code, chart: v.chart });
  }
  return out;
}

describe('autotrain visualization code', function () {
  // Python starts once per program for the syntax checks and once per library for the run-checks.
  this.timeout(300_000);

  // CI installs pandas and every plotting library (.ci/run): there the run-checks below must not quietly drop out.
  if (process.env.CI) it('finds pandas and every plotting library on CI, so every run-check below runs', () => {
    assert.deepEqual(runnable.map((r) => r.library), LIBRARIES, 'install python3-pandas, python3-plotly, python3-matplotlib and python3-seaborn');
  });

  it('reaches every chart kind', async () => {
    const kinds = new Set([...(await codeFor('plotly')).values()].map((v) => v.chart.kind));
    assert.deepEqual([...kinds].sort(), [...ChartKindSchema.options].sort());
  });

  for (const library of LIBRARIES) {
    it(`writes ${library} programs that parse, define plot(data), read DATA_PATH as the service does and end with the chart as an expression`, async () => {
      for (const [name, { code }] of await codeFor(library)) {
        const parsed = python(['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], code);
        assert.equal(parsed.status, 0, `${library} ${name} does not parse: ${parsed.stderr}`);
        assert.match(code, /^def plot\(data: pd\.DataFrame\):$/m);
        assert.match(code, /^DATA_PATH = "weather\.csv"$/m);
        assert.match(code, /^data = read_data\(DATA_PATH\)\nchart = plot\(data\)$/m);
        assert.match(code, /pd\.read_csv\(file, sep=",", encoding="utf-8-sig", keep_default_na=False, na_values=\[""\]\)/);
        assert.equal(code.trimEnd().split('\n').at(-1), 'chart', 'a notebook cell displays its last expression');
        assert.doesNotMatch(code.slice(code.indexOf('def plot('), code.indexOf('def read_data(')), /\.show\(/, 'plot(data) draws without showing');
        for (const [alias, module] of [['pd', 'pandas'], ['px', 'plotly.express'], ['go', 'plotly.graph_objects'], ['plt', 'matplotlib.pyplot'], ['sns', 'seaborn']]) {
          if (new RegExp(`\\b${alias}\\.`).test(code)) assert.match(code, new RegExp(`^import ${module.replace('.', '\\.')} as ${alias}$`, 'm'), `${library} ${name} uses ${alias} without importing it`);
        }
      }
    });
  }

  if (runnable.length) it('reads a Parquet file, known by its first bytes, with pandas Parquet reader, and a CSV as the service does', async () => {
    const { code } = [...(await codeFor(runnable[0].library)).values()][0];
    // Only the imports and read_data run: the file decides which pandas reader it goes to.
    const readOnly = [
      'import ast, json, sys',
      'tree = ast.parse(sys.stdin.read())',
      'keep = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) or (isinstance(n, ast.FunctionDef) and n.name == "read_data")]',
      'scope = {}',
      'exec(compile(ast.Module(body=keep, type_ignores=[]), "chart", "exec"), scope)',
      'try:',
      '    print(json.dumps({"shape": list(scope["read_data"](sys.argv[1]).shape)}))',
      'except ImportError as error:',
      '    print(json.dumps({"missing": str(error)}))',
    ].join('\n');
    const read = (path: string) => {
      const r = python(['-c', readOnly, path], code, runnable[0].interpreter);
      assert.equal(r.status, 0, r.stderr);
      return JSON.parse(r.stdout) as { shape?: number[]; missing?: string };
    };
    assert.deepEqual(read(join(DATA_DIR, 'penguins.csv')).shape, [344, 7]);
    const parquet = read(join(DATA_DIR, 'penguins.parquet'));
    // Without pyarrow or fastparquet, pandas says it has no Parquet engine: the file went to read_parquet all the same.
    if (parquet.missing !== undefined) assert.match(parquet.missing, /pyarrow|fastparquet|parquet/i);
    else assert.deepEqual(parquet.shape, [344, 7]);
  });

  describe('run-checks in a child process (libraries found on this machine)', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'xmodels-viz-'));
      copyFileSync(join(DATA_DIR, 'weather.csv'), join(dir, 'weather copy.csv'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    for (const { library, interpreter } of runnable) {
      it(`runs every ${library} program against a copy of the CSV`, async () => {
        const files: string[] = [];
        for (const [name, { code }] of await codeFor(library)) {
          const file = join(dir, `${library}-${name.replace(/\W+/g, '_')}.py`);
          writeFileSync(file, withDataPath(code, join(dir, 'weather copy.csv')));
          files.push(file);
        }
        const runner = [
          'import json, runpy, sys, traceback',
          'failures = {}',
          'for path in json.loads(sys.stdin.read()):',
          '    try:',
          '        chart = runpy.run_path(path)["chart"]',
          '        assert chart is not None, "chart is None"',
          '    except Exception:',
          '        failures[path] = traceback.format_exc(limit=2)',
          'print(json.dumps(failures))',
        ].join('\n');
        const result = python(['-c', runner], JSON.stringify(files), interpreter);
        assert.equal(result.status, 0, result.stderr);
        assert.deepEqual(JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}'), {});
      });

      it(`writes the ${library} figure next to the script when run from another folder without a display`, async () => {
        const { code } = (await codeFor(library)).get('bar (mean)') ?? { code: '' };
        const scripts = join(dir, `${library}-scripts`);
        mkdirSync(scripts);
        copyFileSync(join(DATA_DIR, 'weather.csv'), join(scripts, 'weather.csv'));
        writeFileSync(join(scripts, 'chart.py'), code);
        const run = spawnSync(interpreter, [join(scripts, 'chart.py')], { cwd: tmpdir(), encoding: 'utf8', timeout: 300_000, env: { ...process.env, MPLBACKEND: 'Agg', DISPLAY: '', BROWSER: 'true' } });
        assert.equal(run.status, 0, run.stderr);
        const figure = join(scripts, library === 'plotly' ? 'chart.html' : 'chart.png');
        assert.ok(existsSync(figure), `no figure at ${figure}: ${run.stdout}`);
        assert.match(run.stdout, /Chart written to /);
      });

      it(`finds the ${library} program's data beside the script first, else at the path written, and names both when neither exists`, async () => {
        const { code } = (await codeFor(library)).get('bar (count)') ?? { code: '' };
        const data = join(dir, `${library}-data`);
        const saved = join(dir, `${library}-elsewhere`);
        mkdirSync(data);
        mkdirSync(saved);
        const csv = join(data, 'weather.csv');
        copyFileSync(join(DATA_DIR, 'weather.csv'), csv);
        const script = join(saved, 'chart.py');
        const run = (program: string) => {
          writeFileSync(script, program);
          const check = 'import runpy, sys; scope = runpy.run_path(sys.argv[1]); print("drew", len(scope["data"]), "rows")';
          return spawnSync(interpreter, ['-c', check, script], { cwd: tmpdir(), encoding: 'utf8', timeout: 300_000, env: { ...process.env, MPLBACKEND: 'Agg', DISPLAY: '', BROWSER: 'true' } });
        };
        const atPath = run(withDataPath(code, csv));
        assert.equal(atPath.status, 0, `saved away from its data, run from a third folder, it reads the path written: ${atPath.stderr}`);
        assert.match(atPath.stdout, /^drew 2922 rows$/m);

        const beside = join(saved, 'weather.csv');
        writeFileSync(beside, 'weather\nbeside\nbeside\n');
        rmSync(csv);
        const besideRun = run(withDataPath(code, csv));
        assert.equal(besideRun.status, 0, besideRun.stderr);
        assert.match(besideRun.stdout, /^drew 2 rows$/m, 'the file of that name beside the script comes first');

        rmSync(beside);
        for (const [program, looked] of [[withDataPath(code, csv), [beside, csv]], [code, [beside, join(tmpdir(), 'weather.csv')]]] as const) {
          const gone = run(program);
          assert.notEqual(gone.status, 0);
          const error = gone.stderr.trim().split('\n').at(-1) ?? '';
          assert.ok(error.startsWith('FileNotFoundError: The data file weather.csv was not found: looked for '), error);
          for (const path of looked) assert.ok(error.includes(path), `${error} names ${path}`);
          assert.match(error, /Save this script beside weather\.csv, or set DATA_PATH to the full path of the file\.$/);
        }
      });

      it(`ends the ${library} program with the figure as a notebook cell's last expression, reading the file from the working folder`, async () => {
        const { code } = (await codeFor(library)).get('scatter') ?? { code: '' };
        const cell = [
          'import ast, sys',
          'code = sys.stdin.read()',
          'tree = ast.parse(code)',
          'last = tree.body[-1]',
          'assert isinstance(last, ast.Expr), "the last statement is not an expression"',
          'namespace = {"__name__": "__main__"}',
          'exec(compile(ast.Module(body=tree.body[:-1], type_ignores=[]), "<cell>", "exec"), namespace)',
          'shown = eval(compile(ast.Expression(body=last.value), "<cell>", "eval"), namespace)',
          'print(type(shown).__name__)',
        ].join('\n');
        const run = spawnSync(interpreter, ['-c', cell], { cwd: DATA_DIR, input: code, encoding: 'utf8', timeout: 300_000, env: { ...process.env, MPLBACKEND: 'Agg' } });
        assert.equal(run.status, 0, run.stderr);
        assert.equal(run.stdout.trim(), 'Figure');
      });
    }
  });

  it('computes the preview values from the rows', async () => {
    const charts = new Map([...(await codeFor('plotly'))].map(([k, v]) => [k, v.chart]));
    const counts = charts.get('bar (count)');
    assert.ok(counts?.kind === 'bar');
    assert.deepEqual(counts.bars, [
      { label: 'sun', value: 1466 },
      { label: 'rain', value: 1087 },
      { label: 'fog', value: 139 },
      { label: 'snow', value: 119 },
      { label: 'drizzle', value: 111 },
    ]);
    const hist = charts.get('histogram');
    assert.ok(hist?.kind === 'histogram');
    assert.equal(hist.bins.length, 20);
    assert.equal(hist.bins.reduce((a, b) => a + b.count, 0), 2922);
    assert.equal(hist.bins[0].lower, 0.4);
    assert.equal(hist.bins[19].upper, 16.2);
    const corr = charts.get('heatmap (correlation)');
    assert.ok(corr?.kind === 'heatmap' && corr.value === 'correlation');
    assert.deepEqual(corr.matrix.map((row, i) => row[i]), [1, 1, 1, 1]);
    const cross = charts.get('heatmap (count)');
    assert.ok(cross?.kind === 'heatmap' && cross.value === 'count');
    assert.deepEqual(cross.y_labels, ['Seattle', 'New York']);
    assert.equal(cross.matrix.flat().reduce((a, b) => (a ?? 0) + (b ?? 0), 0), 2922);
    const line = charts.get('line (mean)');
    assert.ok(line?.kind === 'line');
    assert.equal(line.points.length, 48, 'four years of daily rows are drawn per month');
    assert.equal(line.points[0].x, '2012-01');
  });

  it('returns the same code without rows, with empty preview data, and validates against the contract', async () => {
    const { summary } = await ruleSummary('weather.csv');
    const withoutRows = await visualizeData(summary, GOALS['bar (count)'], 'seaborn', RULES_CONTEXT);
    const withRows = (await codeFor('seaborn')).get('bar (count)');
    assert.equal(withoutRows.code, withRows?.code);
    assert.ok(withoutRows.chart.kind === 'bar');
    assert.deepEqual(withoutRows.chart.bars, []);
    assert.deepEqual(withoutRows.dependencies, ['pandas', 'matplotlib', 'seaborn']);
    assert.equal(withoutRows.source, 'rules');
    assert.equal(VisualizationResponseSchema.safeParse(withoutRows).success, true);
  });

  it('rejects a goal that names no column, saying which columns exist', async () => {
    const { summary } = await ruleSummary('penguins.csv');
    await assert.rejects(visualizeData(summary, 'histogram of salary', 'plotly', RULES_CONTEXT), (err: unknown) => {
      assert.ok(err instanceof AutotrainInputError);
      assert.match(err.message, /names no column of the dataset; name one of: Species, Island/);
      return true;
    });
  });
});
