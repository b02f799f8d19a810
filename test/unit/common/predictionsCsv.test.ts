import assert from 'node:assert/strict';
import { buildPredictionsCsv, csvCell, predictionsFileName } from '../../../src/common/predictionsCsv';

describe('predictions CSV writer', () => {
  const input = 'name,x\n"Smith, J",1\nLee,2\n';

  it('appends prediction, score, probability and contribution columns in row order', () => {
    const out = buildPredictionsCsv(input, {
      n: 2,
      predictions: ['yes', 'no'],
      scores: [0.8, 0.1],
      probabilities: [0.75, 0.2],
      contributions: { x: [0.3, -0.2] },
    });
    assert.equal(out, 'name,x,prediction,score,probability,contribution_x\n"Smith, J",1,yes,0.8,0.75,0.3\nLee,2,no,0.1,0.2,-0.2\n');
  });

  it('writes the predicted class, one probability column per class and per-class contributions for a multiclass model', () => {
    const out = buildPredictionsCsv('x\n1\n2\n', {
      n: 2,
      predictions: ['b', 'a'],
      class_probabilities: { a: [0.2, 0.7], b: [0.8, 0.3] },
      class_contributions: { a: { x: [-0.1, 0.4] }, b: { x: [0.1, -0.4] } },
    });
    assert.equal(out, 'x,prediction,probability_a,probability_b,contribution_a_x,contribution_b_x\n1,b,0.2,0.8,-0.1,0.1\n2,a,0.7,0.3,0.4,-0.4\n');
  });

  it('reads a semicolon-delimited input by the rules the service reads it with', () => {
    const out = buildPredictionsCsv('name;x\n"Smith; J";1,5\n', { n: 1, predictions: ['yes'] });
    assert.equal(out, 'name,x,prediction\nSmith; J,"1,5",yes\n');
  });

  it('writes only predictions for a regressor and renames a clashing column', () => {
    const out = buildPredictionsCsv('prediction,y\n1,2\n', { n: 1, predictions: [3.5] });
    assert.equal(out, 'prediction,y,prediction_2\n1,2,3.5\n');
  });

  it('writes null as an empty cell and pads short rows', () => {
    const out = buildPredictionsCsv('a,b\n1\n', { n: 1, predictions: [null] });
    assert.equal(out, 'a,b,prediction\n1,,\n');
  });

  it('refuses a result whose length does not match the rows', () => {
    assert.throws(() => buildPredictionsCsv(input, { n: 3, predictions: [1, 2, 3] }), /3 predictions for 2 rows/);
  });

  it('quotes cells with commas, quotes, newlines and edge spaces', () => {
    assert.equal(csvCell('a"b'), '"a""b"');
    assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
    assert.equal(csvCell(' pad'), '" pad"');
    assert.equal(csvCell(1.5), '1.5');
  });

  it('names the output beside the input', () => {
    assert.equal(predictionsFileName('sales.csv'), 'sales.predictions.csv');
    assert.equal(predictionsFileName('SALES.CSV'), 'SALES.predictions.csv');
    assert.equal(predictionsFileName('data'), 'data.predictions.csv');
  });
});
