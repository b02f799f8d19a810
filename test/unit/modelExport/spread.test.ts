import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { DataFrame, fitModel, mulberry32, numberColumn, categoryColumn } from '../../../src/engine';
import { exportTables, toPython } from '../../../src/modelExport';

/** Each partition's score_std in an exported module's MODELS (tuples as lists; null when absent). */
function exportedSpread(source: string): Record<string, Record<string, [number[], number]> | null> {
  const script = `import json, sys\nns = {"__name__": "exported"}\nexec(sys.stdin.read(), ns)\nsys.stdout.write(json.dumps({key: model.get("score_std") for key, model in ns["MODELS"].items()}))\n`;
  return JSON.parse(execFileSync('python3', ['-c', script], { input: source, encoding: 'utf8' }));
}

describe('model export: the steps’ spread across the bags as data', () => {
  const random = mulberry32(3);
  const n = 800;
  const x = Float64Array.from({ length: n }, () => random() * 4);
  const grade = Int32Array.from({ length: n }, () => Math.floor(random() * 3));
  const y = Float64Array.from(x, (v, i) => v * v + grade[i] + random());
  const frame = new DataFrame([numberColumn('x', x), categoryColumn('grade', grade, ['a', 'b', 'c']), numberColumn('y', y)]);

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
});
