import { strict as assert } from 'node:assert';
import { mulberry32 } from '../../../../src/engine';
import { binCounts } from '../../../../src/engine/boost/booster';
import { SquaredHistograms } from '../../../../src/engine/boost/histogramState';
import { SquaredRows } from '../../../../src/engine/boost/rowState';

describe('engine boosting states', () => {
  it('squared loss on pairwise histograms matches the row-by-row computation step for step', () => {
    const random = mulberry32(11);
    const n = 3000;
    const nT = 2500;
    const nBins = [7, 12, 4];
    const codes = nBins.map((b) => Uint16Array.from({ length: n }, () => Math.floor(random() * b)));
    const y = Float64Array.from({ length: n }, (_, i) => codes[0][i] - codes[1][i] * 0.5 + random());
    const counts = nBins.map((b, j) => binCounts(codes[j], 0, nT, b));
    const start = Float64Array.from({ length: n }, () => 1 + random());
    const rows = new SquaredRows(y, codes, nT, start, counts);
    const hist = new SquaredHistograms(y, codes, nBins, nT, start, counts);
    const g1 = new Float64Array(12);
    const h1 = new Float64Array(12);
    const g2 = new Float64Array(12);
    const h2 = new Float64Array(12);
    for (let s = 0; s < 40; s++) {
      const j = s % 3;
      // Steps in runs, as a small tree gives them, with an empty run of zeros.
      const step = Float64Array.from({ length: 12 }, (_, b) => (b < nBins[j] ? [0.3, 0.3, 0, -0.2, -0.2, 0.1, 0.1][b % 7] * random() : 0));
      const next = (j + 1) % 3;
      rows.apply(j, step, next, g1, h1);
      hist.apply(j, step, next, g2, h2);
      for (let b = 0; b < nBins[next]; b++) {
        assert.ok(Math.abs(g1[b] - g2[b]) < 1e-7, `step ${s}, bin ${b}: ${g1[b]} vs ${g2[b]}`);
        assert.equal(h1[b], h2[b]);
      }
      assert.ok(Math.abs(rows.validationLoss() - hist.validationLoss()) < 1e-9, `validation loss at step ${s}`);
    }
  });
});
