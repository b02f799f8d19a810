import { strict as assert } from 'node:assert';
import { parseCsv, scanHealth, type ColumnHealth } from '../../../../src/engine';
import { assertClose } from '../helpers';

const CSV = [
  'num,cat,key,text,day,empty',
  '1,a,k1,the quick fox,2020-01-01,',
  '2,a,k2,a lazy dog,2020-01-02,',
  '3,B,k3,one more line,,',
  '4,,k4,and another,2020-01-04,',
  '10,a,k5,last words here,2020-01-05,',
].join('\n');

describe('engine data-health scan', () => {
  const byName = Object.fromEntries(scanHealth(parseCsv(CSV)).map((h) => [h.feature, h])) as Record<string, ColumnHealth>;

  it('summarises numeric columns like pandas (sample std, bias-corrected skew and kurtosis)', () => {
    const h = byName.num;
    assert.equal(h.type, 'id', 'all-unique numbers without missing values count as an id (§10)');
    const withMissing = scanHealth(parseCsv('v,w\n1,a\n2,a\n3,a\n4,a\n10,a\n,a\n'))[0];
    assert.equal(withMissing.type, 'numeric');
    const i = withMissing.health_info;
    assertClose(
      [i.missing_pct, i.min as number, i.max as number, i.mean as number, i.median as number, i.std as number, i.skewness as number, i.kurtosis as number],
      [1 / 6, 1, 10, 4, 3, 3.535534, 1.697056, 3.152],
    );
    assert.equal(withMissing.distribution.kind, 'histogram');
  });

  it('classifies text columns as categorical, id or text and measures their quality', () => {
    const cat = byName.cat;
    assert.equal(cat.type, 'categorical');
    assert.equal(cat.health_info.nunique, 2);
    assert.equal(cat.health_info.mode, 'a');
    assertClose([cat.health_info.missing_pct, cat.health_info.cardinality as number], [0.2, 0.5]);
    // p(a) = 3/5, p(B) = 1/5 against 1/2 each: (0.2 + 0.6) / 2.
    assertClose([cat.health_info.category_imbalance as number], [0.4]);
    assert.deepEqual(cat.distribution, { kind: 'categories', values: [{ value: 'a', count: 3 }, { value: 'B', count: 1 }] });
    assert.equal(byName.key.type, 'id');
    assert.equal(byName.key.health_info.mixed_type, undefined);
    assert.equal(byName.text.type, 'text');
    assert.equal(byName.day.type, 'date');
    assert.equal(byName.empty.type, 'empty');
    assert.equal(byName.empty.health_info.missing_pct, 1);
  });

  it('measures mixed case and mixed types among text values', () => {
    const [h] = scanHealth(parseCsv('v\nAbc\nabc\nABC\na1\na1\nx\nx\nx\nx\nx\n'));
    assert.equal(h.type, 'categorical');
    assertClose([h.health_info.mixed_case as number, h.health_info.mixed_type as number], [0.1, 0.2]);
  });
});
