import assert from 'node:assert/strict';
import { RULES_CONTEXT, visualizeData } from '../../../src/autotrain';
import { withDataFileName, withLocalData } from '../../../src/panels/chartDataPath';
import { goal, summary } from './fixtures';

describe('panels: the data path of chart code', () => {
  it('writes the local file\u2019s full path into the program the panel shows, as a Python literal, and its name back into what an edit sends', async () => {
    const response = await visualizeData(summary, goal, 'matplotlib', RULES_CONTEXT);
    assert.match(response.code, /^DATA_PATH = "customers\.csv"$/m);
    const dataPath = 'C:\\Users\\Ana "A"\\data\\customers.csv';
    const local = withLocalData(response, { summary, goal, dataPath });
    assert.equal(local.code, response.code.replace('DATA_PATH = "customers.csv"', 'DATA_PATH = "C:\\\\Users\\\\Ana \\"A\\"\\\\data\\\\customers.csv"'));
    assert.deepEqual({ ...local, code: response.code }, response, 'only the data path changes');
    assert.equal(withDataFileName(local.code, { summary, goal, dataPath }), response.code, 'no local path leaves with an edit');
    assert.equal(withLocalData(response, { summary, goal }), response, 'a data set the service holds keeps its name');
  });
});
