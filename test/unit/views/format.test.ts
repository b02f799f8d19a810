import assert from 'node:assert/strict';
import { formatNumber, formatPercent, formatSignificant, formatTick, partitionLabel, percentTick } from '../../../src/views/format';

describe('views: number formatting', () => {
  it('formats numbers with a few decimals, tiny ones in exponent form, and missing ones as a dash', () => {
    assert.equal(formatNumber(1234.56789), '1,234.5679');
    assert.equal(formatNumber(0.5, 2), '0.5');
    assert.equal(formatNumber(-1234567.5), '-1,234,567.5');
    assert.equal(formatNumber(-0.00004, 4), '-4.00e-5');
    assert.equal(formatNumber(2), '2');
    assert.equal(formatNumber(0.000012), '1.20e-5');
    assert.equal(formatNumber(null), '—');
    assert.equal(formatNumber(Number.NaN), '—');
  });

  it('rounds axis labels to significant digits', () => {
    assert.equal(formatSignificant(-816.042), '-816');
    assert.equal(formatSignificant(0.052345), '0.0523');
    assert.equal(formatSignificant(1234.5), '1,230');
    assert.equal(formatSignificant(0.000123456), '0.000123');
    assert.equal(formatSignificant(999.7), '1,000');
    assert.equal(formatSignificant(0), '0');
    assert.equal(formatSignificant(undefined), '—');
  });

  it('writes numbers as en-US toLocaleString does', () => {
    for (const value of [0, 1, -1, 12.5, 999.99995, 1e6 + 0.25, -98765.4321, 0.1 + 0.2, 123456789.123]) {
      assert.equal(formatNumber(value), Number(value.toFixed(4)).toLocaleString('en-US', { maximumFractionDigits: 4 }), String(value));
      assert.equal(formatSignificant(value), Number(value.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 20 }), String(value));
    }
  });

  it('writes axis ticks with the decimals their step needs', () => {
    const ticks = (values: number[]) => values.map((value) => ({ value }));
    const halves = ticks([0, 0.5, 1, 1.5, 2]);
    assert.deepEqual(halves.map((t) => formatTick(t.value, halves)), ['0', '0.5', '1.0', '1.5', '2.0']);
    const thousands = ticks([-2000, 0, 2000, 4000]);
    assert.deepEqual(thousands.map((t) => formatTick(t.value, thousands)), ['-2,000', '0', '2,000', '4,000']);
    const tiny = ticks([0, 0.00002, 0.00004]);
    assert.equal(formatTick(0.00002, tiny), '2.00e-5');
  });

  it('keeps percentage ticks distinct on a narrow axis', () => {
    const narrow = [0, 0.005, 0.01, 0.015].map((value) => ({ value }));
    assert.deepEqual(narrow.map((t) => percentTick(t.value, narrow)), ['0.0%', '0.5%', '1.0%', '1.5%']);
    const wide = [0, 0.2, 0.4].map((value) => ({ value }));
    assert.deepEqual(wide.map((t) => percentTick(t.value, wide)), ['0%', '20%', '40%']);
  });

  it('shows fractions as percentages and names the whole-data partition', () => {
    assert.equal(formatPercent(0.1234), '12.3%');
    assert.equal(formatPercent(1, 0), '100%');
    assert.equal(formatPercent(null), '—');
    assert.equal(partitionLabel('__dataset__'), 'All data');
    assert.equal(partitionLabel('north'), 'north');
  });
});
