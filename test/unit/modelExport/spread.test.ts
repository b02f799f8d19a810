import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { axisSize, categoryColumn, DataFrame, fitModel, mulberry32, numberColumn } from '../../../src/engine';
import { exportTables, toPython } from '../../../src/modelExport';

/** Each partition's score_std in an exported module's MODELS (tuples as lists; null when absent). */
function exportedSpread(source: string, entry = 'score_std'): Record<string, Record<string, unknown> | null> {
  const script = `import json, sys\nns = {"__name__": "exported"}\nexec(sys.stdin.read(), ns)\nsys.stdout.write(json.dumps({key: model.get("${entry}") for key, model in ns["MODELS"].items()}))\n`;
  return JSON.parse(execFileSync('python3', ['-c', script], { input: source, encoding: 'utf8' }));
}

describe('model export: the steps’ spread across the bags as data', () => {
  const random = mulberry32(3);
  const n = 800;
  const x = Float64Array.from({ length: n }, () => random() * 4);
  const grade = Int32Array.from({ length: n }, () => Math.floor(random() * 3));
  const z = Float64Array.from({ length: n }, () => random() * 4 - 2);
  const y = Float64Array.from(x, (v, i) => v * v + grade[i] + 3 * (v - 2) * z[i] + random());
  const frame = new DataFrame([numberColumn('x', x), categoryColumn('grade', grade, ['a', 'b', 'c']), numberColumn('z', z), numberColumn('y', y)]);

  it('writes each feature’s standard deviations beside its steps in Python, and none for a model without bags', () => {
    const model = fitModel(frame, { target: 'y', modelType: 'regressor', boost: { outer_bags: 4, interactions: 0 } });
    const spread = exportedSpread(toPython(exportTables(model, 'y'))).__dataset__;
    const part = model.partitions.get('__dataset__');
    for (const f of part?.features ?? []) {
      const std = Array.from(f.leaves.std ?? []);
      assert.deepEqual(spread?.[f.name], [std.slice(0, -1), std[std.length - 1]], f.name);
    }
    const xplainable = fitModel(frame, { target: 'y', modelType: 'regressor', method: 'xplainable' });
    assert.equal(exportedSpread(toPython(exportTables(xplainable, 'y'))).__dataset__, null);
  });

  it('writes each pair term’s cells’ standard deviations beside its cells', () => {
    const model = fitModel(frame, { target: 'y', modelType: 'regressor', boost: { outer_bags: 4, interactions: 1 } });
    const pair = model.partitions.get('__dataset__')?.pairs?.[0];
    assert.ok(pair?.std, 'the x × z pair is fitted');
    const width = axisSize(pair.axes[1]);
    const rows = Array.from({ length: pair.std.length / width }, (_, a) => Array.from(pair.std?.subarray(a * width, (a + 1) * width) ?? []));
    assert.deepEqual(Object.values(exportedSpread(toPython(exportTables(model, 'y')), 'pairs_std').__dataset__ ?? {}), [rows]);
  });
});
