import assert from 'node:assert/strict';
import {
  compareArgs,
  datasetKey,
  datasetSummaryArgs,
  evaluationArgs,
  featureInfoArgs,
  profileArgs,
  subjectTitle,
  visualizationArgs,
} from '../../../src/panels/panelArgs';
import { goal, label, recommendations, summary } from './fixtures';

const versionNode = { kind: 'version', modelId: 'm-1', versionId: 'v-1' };
const partitionNode = { kind: 'partition', modelId: 'm-1', versionId: 'v-1', partitionId: 'p-1' };

describe('panels: command and restored arguments', () => {
  it('reads the profile arguments from a version node, a partition node or ids', () => {
    assert.deepEqual(profileArgs(versionNode), { versionId: 'v-1', modelId: 'm-1' });
    assert.deepEqual(profileArgs(partitionNode), { versionId: 'v-1', modelId: 'm-1', partitionId: 'p-1' });
    assert.deepEqual(profileArgs({ versionId: 'v-2' }), { versionId: 'v-2' });
    assert.equal(profileArgs({ kind: 'model', modelId: 'm-1' }), undefined);
    assert.equal(profileArgs(undefined), undefined);
    assert.equal(profileArgs({ versionId: '' }), undefined);
  });

  it('reads evaluation from a partition and feature info from a version', () => {
    assert.deepEqual(evaluationArgs(partitionNode), { partitionId: 'p-1' });
    assert.equal(evaluationArgs(versionNode), undefined);
    assert.deepEqual(evaluationArgs({ partitionId: 'p-2', csvPath: '/data/cars.csv' }), { partitionId: 'p-2', csvPath: '/data/cars.csv' }, 'the training CSV for autotrain');
    assert.deepEqual(featureInfoArgs(versionNode), { versionId: 'v-1' });
    assert.deepEqual(featureInfoArgs({ versionId: 'v-9', extra: 1 }), { versionId: 'v-9' });
  });

  it('reads a comparison as two different versions of one model', () => {
    assert.deepEqual(compareArgs({ modelId: 'm-1', versionId: 'v-1', otherVersionId: 'v-2', modelName: 'cars', extra: 1 }), { modelId: 'm-1', versionId: 'v-1', otherVersionId: 'v-2', modelName: 'cars' });
    assert.equal(compareArgs({ modelId: 'm-1', versionId: 'v-1', otherVersionId: 'v-1' }), undefined, 'a version with itself');
    assert.equal(compareArgs(versionNode), undefined, 'a version node alone names no other version');
    assert.equal(compareArgs({ versionId: 'v-1', otherVersionId: 'v-2' }), undefined, 'no model');
  });

  it('names the model and version in the arguments, from a node or a plain subject', () => {
    const model = { model_name: 'breast_cancer' };
    assert.deepEqual(profileArgs({ ...versionNode, model, version: { version_number: 2 } }), { versionId: 'v-1', modelId: 'm-1', modelName: 'breast_cancer', versionNumber: 2 });
    assert.deepEqual(evaluationArgs({ ...partitionNode, model, versionNumber: 3 }), { partitionId: 'p-1', modelName: 'breast_cancer', versionNumber: 3 });
    assert.deepEqual(featureInfoArgs({ versionId: 'v-1', modelName: 'churn', versionNumber: 0 }), { versionId: 'v-1', modelName: 'churn' });
    assert.equal(subjectTitle({ modelName: 'breast_cancer', versionNumber: 2 }, 'Evaluation', 'All data'), 'breast_cancer v2 \u00b7 Evaluation \u00b7 All data');
    assert.equal(subjectTitle({ versionNumber: 2 }, 'Profile'), 'v2 \u00b7 Profile');
    assert.equal(subjectTitle({}, 'Evaluation', 'All data'), 'Evaluation \u00b7 All data');
  });

  it('checks a summary against the contract and keeps only valid list items', () => {
    const args = datasetSummaryArgs({ summary, goals: [goal, { question: 1 }], labels: [label], recommendations });
    assert.ok(args);
    assert.equal(args.goals?.length, 1);
    assert.equal(args.labels?.length, 1);
    assert.equal(args.recommendations?.length, 2);
    assert.equal(datasetSummaryArgs({ summary: { ...summary, rows: -1 } }), undefined);
    assert.deepEqual(datasetSummaryArgs({ summary }), { summary });
  });

  it('needs a summary and a goal to show chart code, and ignores an unknown library', () => {
    assert.deepEqual(visualizationArgs({ summary, goal, library: 'seaborn' }), { summary, goal, library: 'seaborn' });
    assert.deepEqual(visualizationArgs({ summary, goal, library: 'ggplot' }), { summary, goal });
    assert.equal(visualizationArgs({ summary }), undefined);
  });

  it('keeps the full path of the local file a summary was made from, for chart code to read it wherever it is saved', () => {
    const dataPath = '/home/ana/data/customers.csv';
    assert.deepEqual(datasetSummaryArgs({ summary, dataPath }), { summary, dataPath });
    assert.deepEqual(visualizationArgs({ summary, goal, dataPath }), { summary, goal, dataPath });
    assert.deepEqual(visualizationArgs({ summary, goal, dataPath: '' }), { summary, goal });
    assert.deepEqual(visualizationArgs({ summary, goal, dataPath: 7 }), { summary, goal });
  });

  it('keys a dataset by its id, or by name when it has none', () => {
    assert.equal(datasetKey({ summary }), 'ds-1');
    assert.equal(datasetKey({ summary: { ...summary, dataset_id: null } }), 'name:customers');
  });
});
