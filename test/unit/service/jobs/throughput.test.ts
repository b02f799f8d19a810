import assert from 'node:assert/strict';
import { autotrainWork, RULES_CONTEXT, summarizeDataset, type FitWork } from '../../../../src/autotrain';
import type { DatasetSummary } from '../../../../src/contract';
import { ThroughputMeter, oneFit } from '../../../../src/service/jobs/throughput';
import { loadFrame } from '../../autotrain/helpers';

async function summaryOf(file: string): Promise<DatasetSummary> {
  return summarizeDataset(loadFrame(file), { dataset_id: 'ds-1', name: file, file_name: file }, RULES_CONTEXT);
}

const fits = (work: readonly FitWork[]) => work.reduce((n, w) => n + w.fits, 0);

describe('service: job estimates from the fits a job makes', () => {
  it('grows with the rows, the features and the fits, and starts above zero', () => {
    const meter = new ThroughputMeter();
    const at = (rows: number, features: number, count = 1) => meter.estimate('autotrain', [{ rows, features, fits: count }]);
    assert.ok(at(0, 1, 0) > 0, 'a start-up cost');
    for (const [smaller, larger] of [
      [at(1_000, 5), at(10_000, 5)],
      [at(1_000, 5), at(1_000, 50)],
      [at(1_000, 5), at(1_000, 5, 10)],
    ]) {
      assert.ok(smaller < larger, `${smaller} s < ${larger} s`);
    }
    assert.ok(meter.estimate('manual', oneFit(20_000, 5)) < meter.estimate('autotrain', [{ rows: 20_000, features: 4, fits: 10 }]));
  });

  it("counts an autotrain job's search and final fits, once per class of a multiclass label, on the features its steps leave", async () => {
    const penguins = await summaryOf('penguins.csv');
    const species = autotrainWork(penguins, 'Species', 'classifier');
    const mass = autotrainWork(penguins, 'Body Mass (g)', 'regressor');
    assert.equal(fits(species), 3 * fits(mass), 'one model per class of the three species');
    assert.deepEqual(autotrainWork(penguins), species, 'without a label, the rules top label (Species)');
    assert.deepEqual(
      species.map((w) => w.rows),
      [Math.round(Math.round(344 * 0.8) * 0.8), Math.round(344 * 0.8)],
      'the search fits on its training rows, the final model on autotrain training rows',
    );
    const flights = autotrainWork(await summaryOf('flights-20k.csv'), 'delay', 'regressor');
    assert.ok(flights[0].features > 4, `the date's parts are features too (${flights[0].features})`);
    const meter = new ThroughputMeter();
    assert.ok(meter.estimate('autotrain', species) > meter.estimate('autotrain', mass));
    assert.ok(meter.estimate('autotrain', flights) > meter.estimate('autotrain', mass));
  });

  it('follows the measured duration of finished jobs, within 2x after one job and closer after more, each kind on its own', () => {
    const meter = new ThroughputMeter();
    const work = [{ rows: 2_000, features: 13, fits: 70 }];
    const measured = 3 * meter.estimate('autotrain', work);
    meter.record('autotrain', work, measured);
    const once = meter.estimate('autotrain', work);
    assert.ok(once > measured / 2 && once < measured, `estimate ${once} s for a job measured at ${measured} s`);
    meter.record('autotrain', work, measured);
    meter.record('autotrain', work, measured);
    assert.ok(Math.abs(meter.estimate('autotrain', work) - measured) < Math.abs(once - measured));
    assert.equal(meter.estimate('manual', work), new ThroughputMeter().estimate('manual', work), 'each kind keeps its own speed');
  });

  it('lets no run of odd jobs move the estimate beyond 4x of the measured constants, and never divides by zero', () => {
    const meter = new ThroughputMeter();
    const work = oneFit(1_000, 5);
    const fresh = meter.estimate('manual', work);
    for (let i = 0; i < 50; i++) meter.record('manual', work, 1_000);
    assert.ok(meter.estimate('manual', work) <= 4 * fresh);
    meter.record('manual', work, 0);
    meter.record('manual', [], 5);
    assert.ok(Number.isFinite(meter.estimate('manual', oneFit(100_000, 10))));
  });
});
