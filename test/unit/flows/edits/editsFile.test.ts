import assert from 'node:assert/strict';
import type { ModelInfo, ModelVersion } from '../../../../src/contract';
import { UserFacingError } from '../../../../src/common/errors';
import { editsFileOf } from '../../../../src/flows/edits/describeEdits';
import { editsFileName, editsFileText, parseEditsFile, type EditsFile } from '../../../../src/flows/edits/editsFile';
import { model, version } from '../../extension/fixtures';
import { categoryBins, numericBins, regressionProfile } from './profiles';

const source = { model_id: 'm1', model_name: 'spend', target_name: 'spend', version_id: 'v2', version_number: 2, parent_version_id: 'v1' };
const file: EditsFile = {
  format: 'xmodels-edits',
  version: 1,
  source,
  edits: [
    { feature: 'age', op: 'shift', bins: [1, 2], bounds: [[20, 30], [30, 40]], value: 0.5, applied_at: '2026-01-02T03:04:05Z', applied_by: 'ana' },
    { feature: 'plan', op: 'set', bins: 'missing', value: -1 },
  ],
};

const rejection = (text: string, name = 'spend.edits.json') => {
  try {
    parseEditsFile(text, name);
  } catch (error) {
    assert.ok(error instanceof UserFacingError, String(error));
    return error.message;
  }
  assert.fail(`${text} was read`);
};

describe('edits file', () => {
  it('is written with the fields in a fixed order, two-space indentation and a final newline, and read back as it was', () => {
    // Fields given in another order come out in the file's order.
    const shuffled = { edits: file.edits.map((e) => Object.fromEntries(Object.entries(e).reverse())), source, version: 1, format: 'xmodels-edits' } as EditsFile;
    const text = editsFileText(shuffled);
    assert.equal(text, editsFileText(file));
    assert.ok(text.endsWith('}\n') && !text.endsWith('\n\n'));
    assert.deepEqual(Object.keys(JSON.parse(text)), ['format', 'version', 'source', 'edits']);
    assert.deepEqual(Object.keys(JSON.parse(text).edits[0]), ['feature', 'op', 'bins', 'bounds', 'value', 'applied_at', 'applied_by']);
    assert.match(text, /^\{\n {2}"format": "xmodels-edits",\n {2}"version": 1,\n {2}"source": \{\n {4}"model_id": "m1",/);
    assert.deepEqual(parseEditsFile(text, 'spend.edits.json'), file);
  });

  it('names the file after the model and version, without characters file systems refuse', () => {
    assert.equal(editsFileName('churn model', 3), 'churn-model-v3.edits.json');
    assert.equal(editsFileName('a/b:c*?', 1), 'a-b-c-v1.edits.json');
    assert.equal(editsFileName('///', 1), 'model-v1.edits.json');
  });

  it('refuses a file that is not an edits file of this format, naming the file, the field and the value', () => {
    assert.match(rejection('{ "format": '), /^spend\.edits\.json is not JSON/);
    assert.match(rejection('{"format": "other"}'), /is not an edits file: its "format" should be "xmodels-edits"/);
    assert.match(rejection('{"format": "xmodels-edits", "version": 2}'), /format version 2, newer than this extension reads \(1\)\. Update/);
    const broken = (edit: Record<string, unknown>) => JSON.stringify({ ...file, edits: [file.edits[1], { ...file.edits[0], ...edit }] });
    assert.match(rejection(broken({ bounds: [[20, 30]] })), /spend\.edits\.json: edits\[1\]\.bounds: lists 1 bins, but bins \[1, 2\] are 2/);
    assert.match(rejection(broken({ bounds: [[20, 30], [31, 40]] })), /edits\[1\]\.bounds\[1\]: a bin ending at 30 is followed by one starting at 31/);
    assert.match(rejection(broken({ bins: 'missing' })), /edits\[1\]\.bounds: belongs to an edit of a range of bins/);
    assert.match(rejection(broken({ bounds: undefined, categories: ['a', 'a'] })), /edits\[1\]\.categories: names a category twice/);
    assert.match(rejection(broken({ op: 'double' })), /edits\[1\]\.op: .* \(got "double"\)/);
    assert.match(rejection(broken({ colour: 'red' })), /spend\.edits\.json: edits\[1\]\.colour is not a field of an edits file/);
    assert.match(rejection(broken({ bins: [2, 1] })), /edits\[1\]\.bins: the first bin 2 comes after the last bin 1/);
  });
});

describe('a version\u2019s edits as a file', () => {
  const parent = regressionProfile({ __dataset__: { numeric: { age: numericBins([20, 30, 40]) }, categorical: { plan: categoryBins(['basic', 'plus', 'pro']) } } });
  const info: ModelInfo = model({ model_id: 'm1', model_name: 'spend', target_name: 'spend' });
  const edited = (edits: ModelVersion['edits']) => version({ version_id: 'v2', version_number: 2, parent_version_id: 'v1', edits });
  const stamp = { applied_at: '2026-01-02T03:04:05Z', applied_by: 'ana' };

  it('gives each range of bins by value: the bounds of numeric bins, the categories of categorical ones', () => {
    const exported = editsFileOf(info, edited([
      { feature: 'age', op: 'shift', bins: [0, 1], value: 1, ...stamp },
      { feature: 'plan', op: 'merge', bins: [1, 2], ...stamp },
      { feature: 'plan', op: 'set', bins: 'missing', value: 0, ...stamp },
      { feature: 'age', op: 'reset', ...stamp },
    ]), [parent]);
    assert.deepEqual(exported.source, { model_id: 'm1', model_name: 'spend', target_name: 'spend', version_id: 'v2', version_number: 2, parent_version_id: 'v1' });
    assert.deepEqual(exported.edits.map((e) => [e.bounds, e.categories]), [
      [[[null, 20], [20, 30]], undefined],
      [undefined, ['plus', 'pro']],
      [undefined, undefined],
      [undefined, undefined],
    ]);
    assert.equal(exported.edits[0].applied_by, 'ana');
  });

  it('reads a feature the parent lacks from the next profile, and refuses a range that no profile lists', () => {
    const own = regressionProfile({ __dataset__: { numeric: { income: numericBins([1000]) }, categorical: {} } });
    const exported = editsFileOf(info, edited([{ feature: 'income', op: 'set', bins: [1, 1], value: 2, ...stamp }]), [parent, own]);
    assert.deepEqual(exported.edits[0].bounds, [[1000, null]]);
    assert.throws(
      () => editsFileOf(info, edited([{ feature: 'age', op: 'set', bins: [3, 4], value: 2, ...stamp }]), [parent]),
      /v2 edits\[0\] changes bins \[3, 4\] of age, which the profile no longer lists/,
    );
  });
});
