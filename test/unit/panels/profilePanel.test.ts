import assert from 'node:assert/strict';
import type { XModelsClient } from '../../../src/client';
import type { XModelsServices } from '../../../src/common/services';
import type { ModelVersion, Partition, Profile, RefitRequest } from '../../../src/contract/models';
import { profilePanel, refitBlocker } from '../../../src/panels/profilePanel';
import { profile } from './fixtures';

const version: ModelVersion = {
  version_id: 'v-1',
  model_id: 'm-1',
  version_number: 3,
  created: '2026-01-01T00:00:00Z',
  created_by: 'ada',
  source: 'train',
  parent_version_id: null,
  dataset_id: 'ds-1',
  parameters: { test_size: 0.25, max_depth: 6 },
  partitions: 1,
  linked_preprocessor: null,
  test_metrics: null,
};
const partitions: Partition[] = [{ partition_id: 'p-1', partition: '__dataset__', n_train: 80, n_test: 20, base_value: 0.3 }];

function fakeServices(versions: ModelVersion[]) {
  const calls: { refit?: { versionId: string; body: RefitRequest }; revealed?: [string, string | undefined]; profiles: string[] } = { profiles: [] };
  const refitProfile: Profile = { ...profile, version_id: 'v-2' };
  const client = {
    models: {
      getModelProfile: async (id: string) => {
        calls.profiles.push(id);
        return id === 'v-2' ? refitProfile : profile;
      },
      listModelVersionPartitions: async (id: string) => ({ version_id: id, partitions }),
      listModelVersions: async () => (calls.refit ? [{ ...version, version_id: 'v-2', version_number: 4 }, ...versions] : versions),
      getModel: async () => ({ target_name: 'churn' }),
      refitModel: async (versionId: string, body: RefitRequest) => {
        calls.refit = { versionId, body };
        return { version_id: 'v-2', parameters_changed: { age: { max_depth: { from: 6, to: 3 } } } };
      },
    },
  } as unknown as XModelsClient;
  const services = {
    getClient: async () => client,
    log: { warn: () => undefined },
    revealModel: async (modelId: string, versionId?: string) => {
      calls.revealed = [modelId, versionId];
    },
  } as unknown as XModelsServices;
  return { services, calls };
}

const context = (args: { versionId: string; modelId?: string }) => ({ args, signal: new AbortController().signal });

describe('panels: profile panel data', () => {
  it('loads the profile with its partitions and picks the opened version\u2019s record from the model\u2019s versions', async () => {
    const newer = { ...version, version_id: 'v-9', version_number: 9, dataset_id: null };
    const { services, calls } = fakeServices([newer, version]);
    const args = { versionId: 'v-1', modelId: 'm-1' };
    const data = await profilePanel(services).handlers.load(args, context(args));
    assert.deepEqual(calls.profiles, ['v-1']);
    assert.equal(data.version?.version_id, 'v-1');
    assert.equal(data.version?.version_number, 3);
    assert.equal(data.refitUnavailable, undefined, 'v-1 has its dataset, unlike v-9');
    const unknown = await profilePanel(services).handlers.load({ versionId: 'v-404', modelId: 'm-1' }, context(args));
    assert.equal(unknown.version, undefined);
    assert.match(unknown.refitUnavailable ?? '', /no longer among/);
  });

  it('explains why refit is unavailable', () => {
    assert.match(refitBlocker({ versionId: 'v-1' }, version) ?? '', /from the version in the XModels view/);
    assert.match(refitBlocker({ versionId: 'v-1', modelId: 'm-1' }, undefined) ?? '', /no longer among/);
    assert.match(refitBlocker({ versionId: 'v-1', modelId: 'm-1' }, { ...version, dataset_id: null }) ?? '', /no stored dataset/);
  });

  it('refits one feature on the version\u2019s dataset and returns the new version\u2019s profile', async () => {
    const { services, calls } = fakeServices([version]);
    const args = { versionId: 'v-1', modelId: 'm-1' };
    const outcome = await profilePanel(services).handlers.refit(
      { versionId: 'v-1', modelId: 'm-1', feature: 'age', params: { max_depth: 3 } },
      context(args),
    );
    assert.deepEqual(calls.refit, {
      versionId: 'v-1',
      body: { dataset_id: 'ds-1', target_column: 'churn', feature_params: { age: { max_depth: 3 } }, test_size: 0.25 },
    });
    assert.equal(outcome.versionId, 'v-2');
    assert.equal(outcome.versionNumber, 4, 'the new version\u2019s number, read from the refreshed version list');
    assert.deepEqual(calls.profiles, ['v-2'], 'the profile shown beside the old one is the new version\u2019s');
    assert.deepEqual(calls.revealed, ['m-1', 'v-2']);
  });

  it('refuses to refit an uploaded version with a sentence saying why', async () => {
    const { services, calls } = fakeServices([{ ...version, dataset_id: null }]);
    const args = { versionId: 'v-1', modelId: 'm-1' };
    await assert.rejects(
      profilePanel(services).handlers.refit({ versionId: 'v-1', modelId: 'm-1', feature: 'age', params: {} }, context(args)),
      { name: 'UserFacingError', message: /no stored dataset/ },
    );
    assert.equal(calls.refit, undefined);
  });
});
