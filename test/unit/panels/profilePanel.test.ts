import assert from 'node:assert/strict';
import { XModelsApiError, type XModelsClient } from '../../../src/client';
import type { XModelsServices } from '../../../src/common/services';
import type { ModelVersion, Partition, PreviewEditsRequest, PreviewEditsResult, Profile, RefitRequest } from '../../../src/contract/models';
import { editBlocker, profilePanel, refitBlocker } from '../../../src/panels/profilePanel';
import type { SaveEditsParams } from '../../../src/views/protocol';
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

function fakeServices(versions: ModelVersion[], preview: (body: PreviewEditsRequest) => Promise<PreviewEditsResult> = async () => assert.fail('no preview expected')) {
  const calls: {
    refit?: { versionId: string; body: RefitRequest };
    revealed?: [string, string | undefined];
    profiles: string[];
    previews: { versionId: string; body: PreviewEditsRequest; signal?: AbortSignal }[];
  } = { profiles: [], previews: [] };
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
      previewEdits: async (versionId: string, body: PreviewEditsRequest, options?: { signal?: AbortSignal }) => {
        calls.previews.push({ versionId, body, signal: options?.signal });
        return preview(body);
      },
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
const notSaving = { save: async () => assert.fail('nothing is saved') };

describe('panels: profile panel data', () => {
  it('loads the profile with its partitions and picks the opened version\u2019s record from the model\u2019s versions', async () => {
    const newer = { ...version, version_id: 'v-9', version_number: 9, dataset_id: null };
    const { services, calls } = fakeServices([newer, version]);
    const args = { versionId: 'v-1', modelId: 'm-1' };
    const data = await profilePanel(services, notSaving).handlers.load(args, context(args));
    assert.deepEqual(calls.profiles, ['v-1']);
    assert.equal(data.version?.version_id, 'v-1');
    assert.equal(data.version?.version_number, 3);
    assert.equal(data.refitUnavailable, undefined, 'v-1 has its dataset, unlike v-9');
    const unknown = await profilePanel(services, notSaving).handlers.load({ versionId: 'v-404', modelId: 'm-1' }, context(args));
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
    const outcome = await profilePanel(services, notSaving).handlers.refit(
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
      profilePanel(services, notSaving).handlers.refit({ versionId: 'v-1', modelId: 'm-1', feature: 'age', params: {} }, context(args)),
      { name: 'UserFacingError', message: /no stored dataset/ },
    );
    assert.equal(calls.refit, undefined);
  });

  it('offers editing with the version\u2019s method and the part each picker entry shows, or says why not', async () => {
    const { services } = fakeServices([{ ...version, parameters: { ...version.parameters, method: 'boosted' } }]);
    const args = { versionId: 'v-1', modelId: 'm-1' };
    const data = await profilePanel(services, notSaving).handlers.load(args, context(args));
    assert.deepEqual(data.editing, {
      method: 'boosted',
      scopes: { __dataset__: { partition: '__dataset__', namesPartition: true }, north: { partition: 'north', namesPartition: true } },
    });
    assert.equal(data.editUnavailable, undefined);
    const byId = await profilePanel(services, notSaving).handlers.load({ versionId: 'v-1' }, context({ versionId: 'v-1' }));
    assert.equal(byId.editing, undefined);
    assert.match(byId.editUnavailable ?? '', /from the version in the XModels view to edit/);
    assert.equal(editBlocker(args, { ...version, dataset_id: null }), undefined, 'a version without a dataset is edited too');
  });

  it('previews edits through the client with the request\u2019s signal, giving the parts and metrics', async () => {
    const metrics = { r2: 0.5, rmse: 1, mae: 1, mape: null, explained_variance: 0.5 };
    const answer: PreviewEditsResult = {
      version_id: 'v-1',
      features: {},
      parts: [{ partition: '__dataset__', base_value: 1, features: { age: [] } }],
      before: { train_metrics: metrics, test_metrics: metrics },
      after: { train_metrics: { ...metrics, r2: 0.4 }, test_metrics: { ...metrics, r2: 0.45 } },
    };
    const { services, calls } = fakeServices([version], async () => answer);
    const args = { versionId: 'v-1', modelId: 'm-1' };
    const edits = [{ feature: 'age', op: 'remove' as const }];
    const request = context(args);
    const panel = profilePanel(services, notSaving);
    await panel.handlers.load(args, context(args));
    const preview = await panel.handlers.previewEdits({ versionId: 'v-1', edits }, request);
    assert.deepEqual(preview, { kind: 'metrics', parts: answer.parts, before: answer.before, after: answer.after });
    assert.deepEqual(calls.previews, [{ versionId: 'v-1', body: { edits, dataset_id: 'ds-1', target_column: profile.target_name }, signal: request.signal }]);
  });

  it('answers a preview of a version without a dataset with why there are no metrics, asking nothing, and passes failures on', async () => {
    const { services, calls } = fakeServices([{ ...version, dataset_id: null }]);
    const args = { versionId: 'v-1', modelId: 'm-1' };
    const edits = [{ feature: 'age', op: 'shift' as const, value: 1 }];
    const panel = profilePanel(services, notSaving);
    await panel.handlers.load(args, context(args));
    const preview = await panel.handlers.previewEdits({ versionId: 'v-1', edits }, context(args));
    assert.equal(preview.kind, 'noMetrics');
    assert.match(preview.kind === 'noMetrics' ? preview.message : '', /no stored dataset.*Save as new version asks for the rows/);
    assert.deepEqual(calls.previews, []);
    const badBins = new XModelsApiError({ status: 422, code: 'VALIDATION_ERROR', detail: 'edits[0].bins: out of range', fields: [{ path: 'edits.0.bins', message: 'out of range' }] });
    const failing = fakeServices([version], async () => Promise.reject(badBins));
    const failingPanel = profilePanel(failing.services, notSaving);
    await failingPanel.handlers.load(args, context(args));
    await assert.rejects(failingPanel.handlers.previewEdits({ versionId: 'v-1', edits }, context(args)), /edits\[0\]\.bins/);
  });

  it('saves the edits through the saver it was given', async () => {
    const { services } = fakeServices([version]);
    const saved: SaveEditsParams[] = [];
    const saver = { save: async (params: SaveEditsParams) => (saved.push(params), { saved: true as const, versionId: 'v-2', versionNumber: 4, testMetrics: { r2: 1, rmse: 0, mae: 0, mape: 0, explained_variance: 1 } }) };
    const params = { versionId: 'v-1', modelId: 'm-1', edits: [{ feature: 'age', op: 'merge' as const, bins: [0, 1] as [number, number] }] };
    const outcome = await profilePanel(services, saver).handlers.saveEdits(params, context(params));
    assert.deepEqual(saved, [params]);
    assert.equal(outcome.saved && outcome.versionNumber, 4);
  });
});
