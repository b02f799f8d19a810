import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withDataPath, type ChartSpec } from '../../../../src/contract/autotrain';
import { parseCsv } from '../../../../src/engine';
import { RULES_CONTEXT, summarizeDataset, visualizeData } from '../../../../src/autotrain';

/** Rows whose texts pandas would read as missing by default ("None", "NA", "null"), with no ties in counts or means. */
function sampleCsv(): string {
  const damage = ['None', 'NA', 'Minor', 'Substantial', 'null'];
  const lines = ['damage,cost,weight,species'];
  for (let i = 0; i < 90; i++) {
    const level = damage[Math.min(4, Math.floor(Math.sqrt(i * 0.28)))];
    const cost = i % 7 === 3 ? '' : String((i * 37) % 101 + damage.indexOf(level) * 13.5);
    lines.push(`${level},${cost},${(i * 1.7) % 23},${['adelie', 'gentoo', 'NA', 'adelie'][i % 4]}`);
  }
  return `${lines.join('\n')}\n`;
}

const GOALS = [
  'bar chart of counts of damage',
  'bar chart of mean cost by damage',
  'heatmap of correlations between cost, weight',
  'heatmap of damage by species',
  'bar chart of class balance of damage',
];

/** The numbers a plotly program draws, read from the figure's first trace. */
const READ_FIGURE = [
  'import json, runpy, sys',
  'out = []',
  'for path in json.loads(sys.stdin.read()):',
  '    trace = runpy.run_path(path)["chart"].data[0]',
  '    z = getattr(trace, "z", None)',
  '    out.append({"x": [str(v) for v in trace.x], "y": [v if isinstance(v, (int, float)) else str(v) for v in trace.y], "z": None if z is None else [[None if v != v else round(float(v), 4) for v in row] for row in z]})',
  'print(json.dumps(out))',
].join('\n');

function previewNumbers(chart: ChartSpec): unknown {
  if (chart.kind === 'bar') return { x: chart.bars.map((b) => b.label), y: chart.bars.map((b) => b.value) };
  if (chart.kind === 'heatmap') return { x: chart.x_labels, y: chart.y_labels, z: chart.matrix };
  throw new Error(`no comparison for ${chart.kind}`);
}

describe('autotrain preview and Python agree', function () {
  this.timeout(300_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'xmodels-parity-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('draws the same numbers in the preview as the generated code computes with pandas, "None" and "NA" included', async () => {
    const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import pandas, plotly']).status === 0);
    assert.ok(python, 'python3 with pandas and plotly is needed (apt-get install python3-pandas python3-plotly)');
    const csv = sampleCsv();
    const file = join(dir, 'damage.csv');
    writeFileSync(file, csv);
    const frame = parseCsv(csv);
    const summary = await summarizeDataset(frame, { dataset_id: 'ds-1', name: 'damage', file_name: 'damage.csv' }, RULES_CONTEXT);
    const previews: unknown[] = [];
    const scripts: string[] = [];
    for (const [i, goal] of GOALS.entries()) {
      const v = await visualizeData(summary, goal, 'plotly', RULES_CONTEXT, frame);
      previews.push(previewNumbers(v.chart));
      scripts.push(join(dir, `chart${i}.py`));
      writeFileSync(scripts[i], withDataPath(v.code, file));
    }
    const run = spawnSync(python, ['-c', READ_FIGURE], { input: JSON.stringify(scripts), encoding: 'utf8', env: { ...process.env, BROWSER: 'true' } });
    assert.equal(run.status, 0, run.stderr);
    const drawn = (JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as { x: string[]; y: unknown[]; z: unknown }[]).map((d, i) =>
      GOALS[i].startsWith('bar') ? { x: d.x, y: (d.y as number[]).map((v) => Math.round(v * 1e6) / 1e6) } : d,
    );
    assert.deepEqual(drawn, previews);
    const counts = previews[0] as { x: string[]; y: number[] };
    assert.ok(counts.x.includes('None') && counts.x.includes('NA'), 'the "None" and "NA" levels are categories, not missing values');
    assert.equal(counts.y.reduce((a, b) => a + b, 0), 90);
    const balance = previews[4] as { x: string[]; y: number[] };
    assert.deepEqual(balance.x, counts.x);
    assert.ok(Math.abs(balance.y.reduce((a, b) => a + b, 0) - 100) < 1e-4, 'class shares are percentages of the rows');
  });

  it('renders $ in matplotlib titles and labels literally, not as math text', async () => {
    const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import pandas, matplotlib']).status === 0);
    assert.ok(python, 'python3 with pandas and matplotlib is needed');
    const csv = ['Cost Repairs $,Cost Other $', ...Array.from({ length: 30 }, (_, i) => `${i * 3},${(i * 7) % 11}`)].join('\n');
    const file = join(dir, 'costs.csv');
    writeFileSync(file, `${csv}\n`);
    const frame = parseCsv(csv);
    const summary = await summarizeDataset(frame, { dataset_id: 'ds-1', name: 'costs', file_name: 'costs.csv' }, RULES_CONTEXT);
    const v = await visualizeData(summary, 'How do Cost Repairs $ and Cost Other $ relate? scatter plot', 'matplotlib', RULES_CONTEXT, frame);
    const script = join(dir, 'costs.py');
    writeFileSync(script, withDataPath(v.code, file));
    const check = [
      'import runpy, sys',
      'fig = runpy.run_path(sys.argv[1])["chart"]',
      'ax = fig.axes[0]',
      'fig.canvas.draw()',
      'print(ax.get_title(), "|", ax.get_xlabel())',
    ].join('\n');
    const run = spawnSync(python, ['-c', check, script], { encoding: 'utf8', env: { ...process.env, MPLBACKEND: 'Agg' } });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim().split('\n').at(-1), 'How do Cost Repairs \\$ and Cost Other \\$ relate? scatter plot | Cost Repairs \\$');
  });
});
