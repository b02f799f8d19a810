import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDataPath, type Goal, type VisualizationLibrary } from '../../../../src/contract/autotrain';
import { parseCsv } from '../../../../src/engine';
import { RULES_CONTEXT, summarizeDataset, visualizeData } from '../../../../src/autotrain';
import { csvField } from '../../modelExport/exportHarness';
import { DATA_DIR } from '../helpers';

/**
 * weather.csv's columns renamed to names that would end a string or a comment, or hide code from a reader: triple
 * quotes, line breaks, `]]` (the end of a column list), backslash escapes, `$` (matplotlib's math text), `--`, block
 * comment ends, line separators and right-to-left marks.
 */
const COLUMNS: Readonly<Record<string, string>> = {
  location: 'lo"""\nimport os',
  date: "da'''\n--*/\u202e",
  precipitation: 'pr\\N{X}\\"$',
  temp_max: 'tm\r\n]]"x',
  temp_min: 'tn\u2028\u2066$',
  wind: 'wi -- /* */ z',
  weather: 'we"]] + x\'',
};
/** pandas cuts a header at a NUL character, so this name is only parsed, not run. */
const NUL_COLUMNS = { ...COLUMNS, wind: 'wi\0nd' };
const PLAIN = Object.fromEntries(Object.keys(COLUMNS).map((c, i) => [c, `column_${i}`]));

const QUESTION = 'Q """\nimport os; os.system("x")\n\u202e $x$ \\N{X} */ --';
const FILE_NAME = 'we"""\n\u202e.csv';

/** One goal per chart kind and variant, naming its columns by their weather.csv names. */
const GOALS: [visualization: string, columns: string[]][] = [
  ['histogram', ['wind']],
  ['bar chart', ['weather']],
  ['bar chart of the class balance', ['weather']],
  ['bar chart', ['weather', 'precipitation']],
  ['scatter plot', ['temp_min', 'temp_max']],
  ['line chart', ['date', 'temp_max']],
  ['line chart', ['date']],
  ['box plot', ['weather', 'wind']],
  ['box plot', ['wind']],
  ['heatmap', ['precipitation', 'temp_max', 'temp_min', 'wind']],
  ['heatmap', ['location', 'weather']],
];
const LIBRARIES: VisualizationLibrary[] = ['plotly', 'matplotlib', 'seaborn'];

function renamedCsv(columns: Readonly<Record<string, string>>): string {
  const [header, ...lines] = readFileSync(join(DATA_DIR, 'weather.csv'), 'utf8').trim().split('\n');
  return [header.split(',').map((h) => csvField(columns[h])).join(','), ...lines].join('\n');
}

/** Every program of GOALS × LIBRARIES for a dataset with these column names and file name. */
async function programs(columns: Readonly<Record<string, string>>, fileName: string): Promise<{ what: string; code: string; columns: string[] }[]> {
  const frame = parseCsv(renamedCsv(columns));
  const summary = await summarizeDataset(frame, { dataset_id: 'ds-1', name: fileName, file_name: fileName }, RULES_CONTEXT);
  const out = [];
  for (const library of LIBRARIES) {
    for (const [visualization, names] of GOALS) {
      const goal: Goal = { index: 0, question: QUESTION, visualization, rationale: '', columns: names.map((n) => columns[n]) };
      const { code } = await visualizeData(summary, goal, library, RULES_CONTEXT, frame);
      out.push({ what: `${library} ${visualization} of ${names.join(', ')}`, code, columns: goal.columns });
    }
    if (library !== 'matplotlib') {
      const goal: Goal = { index: 0, question: QUESTION, visualization: 'scatter plot', rationale: '', columns: [columns.temp_min, columns.temp_max] };
      const original = await visualizeData(summary, goal, library, RULES_CONTEXT, frame);
      const edit = { code: original.code, instruction: `colour by ${columns.weather} and only 2014` };
      const { code } = await visualizeData(summary, goal, library, RULES_CONTEXT, frame, edit);
      out.push({ what: `${library} scatter coloured by weather`, code, columns: [...goal.columns, columns.weather, columns.date] });
    }
  }
  return out;
}

interface Parsed {
  error?: string;
  /** The syntax tree with every string constant emptied. */
  shape?: string;
  strings?: string[];
}

/** Python's own parse of each program (never run): its shape and its string constants. */
function parse(codes: string[]): Parsed[] {
  const reader = [
    'import ast, json, sys',
    'class Empty(ast.NodeTransformer):',
    '    def visit_Constant(self, node):',
    '        return ast.Constant("") if isinstance(node.value, str) else node',
    'out = []',
    'for code in json.loads(sys.stdin.read()):',
    '    try:',
    '        tree = ast.parse(code)',
    '    except SyntaxError as error:',
    '        out.append({"error": str(error)})',
    '        continue',
    '    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]',
    '    out.append({"shape": ast.dump(Empty().visit(tree)), "strings": strings})',
    'print(json.dumps(out))',
  ].join('\n');
  const run = spawnSync('python3', ['-c', reader], { input: JSON.stringify(codes), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Parsed[];
}

/** Characters that must not appear in generated code as they are (line feeds apart). */
const HIDDEN = /[\0\r\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

describe('autotrain visualization code: column names, titles and file names that look like code stay text', function () {
  this.timeout(300_000);

  for (const [what, columns] of [['', COLUMNS], [' (one with a NUL character)', NUL_COLUMNS]] as const) {
    it(`parses to the same program as with plain names, and names every column as a string literal${what}`, async () => {
      const hostile = await programs(columns, FILE_NAME);
      const plain = await programs(PLAIN, 'weather.csv');
      const [parsed, plainParsed] = [parse(hostile.map((p) => p.code)), parse(plain.map((p) => p.code))];
      hostile.forEach((program, i) => {
        assert.doesNotMatch(program.code, HIDDEN, `${program.what}: no hidden or line-breaking character is written as it is`);
        assert.equal(parsed[i].error, undefined, `${program.what} does not parse: ${parsed[i].error}`);
        assert.ok(parsed[i].shape === plainParsed[i].shape, `${program.what}: the same statements and expressions as with plain names`);
        for (const column of program.columns) assert.ok(parsed[i].strings?.includes(column), `${program.what} names ${JSON.stringify(column)}`);
        assert.ok(parsed[i].strings?.includes(FILE_NAME), `${program.what} reads ${JSON.stringify(FILE_NAME)}`);
        const title = program.what.startsWith('plotly') ? QUESTION : QUESTION.replace(/\$/g, '\\$');
        assert.ok(parsed[i].strings?.includes(title), `${program.what} is titled ${JSON.stringify(title)}`);
      });
    });
  }

  it('runs every program on the renamed CSV, found next to the script and by a path with the same characters', async () => {
    const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import pandas, plotly, matplotlib, seaborn']).status === 0);
    assert.ok(python, 'python3 with pandas, plotly, matplotlib and seaborn is needed');
    const dir = mkdtempSync(join(tmpdir(), 'xmodels-viz-"""\n\u202e-'));
    try {
      writeFileSync(join(dir, FILE_NAME), renamedCsv(COLUMNS));
      const scripts = (await programs(COLUMNS, FILE_NAME)).map((program, i) => {
        const script = join(dir, `chart-${i}.py`);
        writeFileSync(script, i % 2 ? program.code : withDataPath(program.code, join(dir, FILE_NAME)));
        return { what: program.what, script };
      });
      const runner = [
        'import json, runpy, sys, traceback',
        'failures = {}',
        'for path in json.loads(sys.stdin.read()):',
        '    try:',
        '        assert runpy.run_path(path)["chart"] is not None, "chart is None"',
        '    except Exception:',
        '        failures[path] = traceback.format_exc(limit=3)',
        'print(json.dumps(failures))',
      ].join('\n');
      const run = spawnSync(python, ['-c', runner], {
        input: JSON.stringify(scripts.map((s) => s.script)),
        cwd: tmpdir(),
        encoding: 'utf8',
        env: { ...process.env, MPLBACKEND: 'Agg', BROWSER: 'true' },
      });
      assert.equal(run.status, 0, run.stderr);
      const failures = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, string>;
      assert.deepEqual(Object.entries(failures).map(([path, error]) => `${scripts.find((s) => s.script === path)?.what}: ${error}`), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
