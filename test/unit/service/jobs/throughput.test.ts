import assert from 'node:assert/strict';
import { ThroughputMeter } from '../../../../src/service/jobs/throughput';

describe('service: job estimates from measured throughput', () => {
  it('starts from the throughput measured on the sample datasets: about a second for small autotrain jobs', () => {
    const meter = new ThroughputMeter();
    assert.equal(meter.estimate('autotrain', 344, 7), 0.8);
    assert.equal(meter.estimate('autotrain', 20_000, 5), 1.2);
    assert.ok(meter.estimate('manual', 20_000, 5) < meter.estimate('autotrain', 20_000, 5));
  });

  it('follows the measured duration of finished jobs, within 2x after one job and closer after more', () => {
    const meter = new ThroughputMeter();
    const measured = 14.5;
    meter.record('autotrain', 3201, 16, measured);
    const once = meter.estimate('autotrain', 3201, 16);
    assert.ok(once >= measured / 2 && once <= measured * 2, `estimate ${once} s for a job measured at ${measured} s`);
    meter.record('autotrain', 3201, 16, measured);
    meter.record('autotrain', 3201, 16, measured);
    assert.ok(Math.abs(meter.estimate('autotrain', 3201, 16) - measured) < Math.abs(once - measured));
    assert.equal(meter.estimate('manual', 3201, 16), new ThroughputMeter().estimate('manual', 3201, 16), 'each kind keeps its own throughput');
  });

  it('counts one fit per class of a multiclass label, before and after a measurement', () => {
    const meter = new ThroughputMeter();
    assert.equal(meter.estimate('autotrain', 344, 7, 3), 2.4);
    const measured = 6;
    meter.record('autotrain', 344, 7, measured, 3);
    const again = meter.estimate('autotrain', 344, 7, 3);
    assert.ok(again >= measured / 2 && again <= measured * 2, `estimate ${again} s for a repeat of a multiclass job measured at ${measured} s`);
    assert.ok(meter.estimate('autotrain', 344, 7) <= again / 3 + 0.1, 'a binary job on the same data fits one model');
  });

  it('never divides by a zero duration', () => {
    const meter = new ThroughputMeter();
    meter.record('manual', 100, 3, 0);
    assert.ok(Number.isFinite(meter.estimate('manual', 100_000, 10)));
  });
});
