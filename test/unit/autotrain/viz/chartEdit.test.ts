import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutotrainInputError, RULES_CONTEXT, visualizeData } from '../../../../src/autotrain';
import { DATA_DIR, ruleSummary } from '../helpers';

async function edited(goal: string, library: 'plotly' | 'matplotlib' | 'seaborn', instruction: string) {
  const { frame, summary } = await ruleSummary('weather.csv');
  const original = await visualizeData(summary, goal, library, RULES_CONTEXT, frame);
  const fixed = await visualizeData(summary, goal, library, RULES_CONTEXT, frame, { code: original.code, instruction });
  return { original, fixed };
}

describe('autotrain "Fix this chart" rules', function () {
  this.timeout(120_000);

  it('adds a log scale to the y axis, or the x axis when asked', async () => {
    const plotly = await edited('histogram of wind', 'plotly', 'log scale');
    assert.match(plotly.fixed.code, /\n {4}fig\.update_yaxes\(type="log"\)\n {4}return fig\n/);
    assert.equal(plotly.fixed.code.replace('    fig.update_yaxes(type="log")\n', ''), plotly.original.code, 'nothing else changes');
    const mpl = await edited('scatter plot of temp_min vs temp_max', 'matplotlib', 'use a log x axis');
    assert.match(mpl.fixed.code, /\n {4}ax\.set_xscale\("log"\)\n {4}return fig\n/);
    assert.match(mpl.fixed.description, /Edited: use a log x axis\.$/);
  });

  it('keeps only the rows of one year of the date column', async () => {
    const { fixed } = await edited('bar chart of mean precipitation by weather', 'seaborn', 'only 2013');
    assert.match(fixed.code, /^def plot\(data: pd\.DataFrame\):\n {4}data = data\[pd\.to_datetime\(data\["date"\], errors="coerce"\)\.dt\.year == 2013\]$/m);
  });

  it('colours a scatter by a column in plotly and seaborn, and says what to do for matplotlib', async () => {
    const plotly = await edited('scatter plot of temp_min vs temp_max', 'plotly', 'colour by weather');
    assert.match(plotly.fixed.code, /subset = data\[\["temp_min", "temp_max", "weather"\]\]/);
    assert.match(plotly.fixed.code, /px\.scatter\(subset, color="weather", /);
    const seaborn = await edited('scatter plot of temp_min vs temp_max', 'seaborn', 'color by weather');
    assert.match(seaborn.fixed.code, /sns\.scatterplot\(data=subset, hue="weather", /);
    await assert.rejects(edited('scatter plot of temp_min vs temp_max', 'matplotlib', 'colour by weather'), /switch the library/);
  });

  it('refuses an instruction the rules do not know, listing the ones they do', async () => {
    await assert.rejects(edited('histogram of wind', 'plotly', 'make it prettier'), (err: unknown) => {
      assert.ok(err instanceof AutotrainInputError);
      assert.equal(err.field, 'edit.instruction');
      assert.match(err.message, /"make it prettier" is not an edit the built-in rules know; they know "log scale"/);
      return true;
    });
  });

  it('writes edited programs that still run', async () => {
    const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import pandas, plotly, seaborn']).status === 0);
    assert.ok(python, 'python3 with pandas, plotly and seaborn is needed');
    const dir = mkdtempSync(join(tmpdir(), 'xmodels-edit-'));
    try {
      copyFileSync(join(DATA_DIR, 'weather.csv'), join(dir, 'weather.csv'));
      const cases = [
        await edited('scatter plot of temp_min vs temp_max', 'plotly', 'colour by weather, log scale, only 2014'),
        await edited('scatter plot of temp_min vs temp_max', 'seaborn', 'colour by weather and only 2012'),
        await edited('histogram of wind', 'matplotlib', 'log scale'),
      ];
      cases.forEach(({ fixed }, i) => writeFileSync(join(dir, `edit${i}.py`), fixed.code));
      for (let i = 0; i < cases.length; i++) {
        const run: SpawnSyncReturns<string> = spawnSync(python as string, [join(dir, `edit${i}.py`)], { cwd: dir, encoding: 'utf8', env: { ...process.env, MPLBACKEND: 'Agg', BROWSER: 'true' } });
        assert.equal(run.status, 0, `edit${i}: ${run.stderr}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
