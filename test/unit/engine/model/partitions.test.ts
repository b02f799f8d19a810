import assert from 'node:assert/strict';
import { DATASET_PARTITION, fitModel, parseCsv, partitionFrames, predict, singlePartitionModel, type NumberColumn } from '../../../../src/engine';

const csv = ['x,plan,y', '1,a,0', '2,a,1', '3,b,0', '4,b,1', '5,a,1', '6,b,0', '7,c,1', '8,c,0'].join('\n');

describe('partition views', () => {
  const frame = parseCsv(csv);
  const model = fitModel(frame, { method: 'xplainable', target: 'y', modelType: 'classifier', partitionOn: 'plan' });

  it('gives each partition the rows with its value and the whole-data model every row', () => {
    const frames = partitionFrames(model, frame);
    assert.deepEqual([...frames.keys()].sort(), [...model.partitions.keys()].sort());
    assert.equal(frames.get(DATASET_PARTITION)?.nRows, 8);
    assert.deepEqual(Array.from((frames.get('a')?.column('x') as NumberColumn).values), [1, 2, 5]);
  });

  it('scores a partition’s rows with that partition alone exactly as the routed model does', () => {
    const rows = partitionFrames(model, frame).get('b');
    assert.ok(rows);
    const routed = predict(model, rows);
    const alone = predict(singlePartitionModel(model, 'b'), rows);
    assert.deepEqual(alone.scores, routed.scores);
    assert.throws(() => singlePartitionModel(model, 'zzz'), /no partition zzz/);
  });
});
