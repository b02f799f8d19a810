import assert from 'node:assert/strict';
import {
  AddVersionRequestSchema,
  closestName,
  CreateModelRequestSchema,
  IGNORED_FIELDS,
  ignoredFieldsOf,
  OPERATIONS,
  StartAutotrainRequestSchema,
  TrainRequestSchema,
} from '../../../src/contract';
import * as z from 'zod';

describe('contract: the fields a request may carry', () => {
  it('suggests the field a typo meant: a letter off, swapped, or another case or separator', () => {
    const train = Object.keys(TrainRequestSchema.shape);
    assert.equal(closestName('max_dept', train), 'max_depth');
    assert.equal(closestName('target_colum', train), 'target_column');
    assert.equal(closestName('targetColumn', train), 'target_column');
    assert.equal(closestName('lerning_rate', train), 'learning_rate');
    assert.equal(closestName('seeed', train), 'seed');
    assert.equal(closestName('tabel', ['connection', 'table']), 'table');
  });

  it('suggests nothing for a name that is no typo of a known one', () => {
    const train = Object.keys(TrainRequestSchema.shape);
    for (const name of ['foo_bar', 'callbacks', 'x', 'edits', 'a'.repeat(500)]) assert.equal(closestName(name, train), undefined, name);
    assert.equal(closestName('nn', ['n']), undefined, 'one letter of two is not a typo');
  });

  it('names the ignored fields each request accepts, and only those declared as ignored', () => {
    assert.deepEqual(ignoredFieldsOf(CreateModelRequestSchema), ['team_id', 'run_id', 'versions']);
    assert.deepEqual(ignoredFieldsOf(AddVersionRequestSchema), ['team_id', 'versions']);
    assert.deepEqual(ignoredFieldsOf(TrainRequestSchema), ['team_id']);
    // The autotrain envelope reads its team_id: it is not an ignored field there.
    assert.deepEqual(ignoredFieldsOf(StartAutotrainRequestSchema), []);
    assert.ok(Object.keys(IGNORED_FIELDS).every((name) => CreateModelRequestSchema.safeParse({ ...validCreate, [name]: { any: ['value'] } }).success));
  });

  it('documents every JSON request as closed to other fields in the OpenAPI document', () => {
    for (const op of OPERATIONS) {
      const schema = op.upload ? op.json : op.request;
      if (!schema) continue;
      const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { additionalProperties?: unknown };
      assert.equal(json.additionalProperties, false, op.operationId);
    }
  });
});

const validCreate = {
  name: 'm',
  type: 'regression',
  target_name: 'y',
  algorithm: 'XRegressor',
  partitions: [{ partition: '__dataset__', columns: [], base_value: 0, profile: {}, feature_importances: {} }],
};
