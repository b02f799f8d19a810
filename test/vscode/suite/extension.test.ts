// The extension core in a real VS Code: activation, the embedded service (start, restart once, stop), the model
// explorer's levels and states, and the train / refit / link / predict / delete commands with every prompt answered
// by a scripted stand-in for the user (installed through the extension's `inputs` seam).
import * as assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { XModelsClient } from '../../../src/client';
import { ContextKeys } from '../../../src/common/contextKeys';
import { LineSplitter, parseServiceLine } from '../../../src/connection/serviceLine';
import type { ModelInfo, RefitResult, TrainResult } from '../../../src/contract';
import type { XModelsExtensionApi } from '../../../src/extension';
import type { ShownPanel } from '../../../src/panels';
import { ModelsTreeDataProvider, type TreeConnection } from '../../../src/tree/modelsTreeDataProvider';
import type { ModelNode, PartitionNode, TreeNode, VersionNode } from '../../../src/tree/nodes';
import { runCommand, ScriptedInputs, waitFor, xmodelsApi } from './hostInputs';

/** A CSV with a binary target (`churned`), numeric and categorical features, an id column and a few gaps. */
function churnCsv(rows: number, seed: number): string {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const lines = ['customer_id,age,plan,monthly_spend,support_calls,churned'];
  for (let i = 0; i < rows; i++) {
    const age = 18 + Math.floor(random() * 60);
    const plan = ['basic', 'plus', 'pro'][Math.floor(random() * 3)];
    const spend = (20 + random() * 80).toFixed(2);
    const calls = Math.floor(random() * 8);
    const churned = calls > 4 || (plan === 'basic' && random() < 0.3) ? 'yes' : 'no';
    lines.push(`C${1000 + i},${i % 17 === 0 ? '' : age},${plan},${spend},${calls},${churned}`);
  }
  return `${lines.join('\n')}\n`;
}

const folder = mkdtempSync(join(tmpdir(), 'xmodels-ext-'));
const churnFile = vscode.Uri.file(join(folder, 'churn.csv'));
const churnLater = vscode.Uri.file(join(folder, 'churn-later.csv'));

async function children(api: XModelsExtensionApi, node?: TreeNode): Promise<TreeNode[]> {
  return (await api.tree.getChildren(node)) ?? [];
}

async function modelNode(api: XModelsExtensionApi, modelId: string): Promise<ModelNode> {
  const node = (await children(api)).find((n): n is ModelNode => n.kind === 'model' && n.modelId === modelId);
  assert.ok(node, `model ${modelId} is not in the tree`);
  return node;
}

describe('XModels extension core', function () {
  let api: XModelsExtensionApi;
  let trained: TrainResult;

  before(async () => {
    writeFileSync(churnFile.fsPath, churnCsv(300, 7));
    writeFileSync(churnLater.fsPath, churnCsv(200, 11));
    api = await xmodelsApi();
    await vscode.commands.executeCommand('xmodels.models.focus');
  });

  describe('activation and the embedded service', () => {
    it('activates and starts the local service as a child process on loopback', async () => {
      console.log(`    activation took ${api.activationMs.toFixed(1)} ms`);
      await waitFor(() => api.connection.state === 'connected', 'the local service is connected', 60_000);
      const pid = api.connection.localServicePid;
      assert.ok(pid && pid !== process.pid, 'the service runs in its own process');
      process.kill(pid, 0);
      const client = await api.services.getClient();
      const health = await client.health();
      assert.equal(health.local, true);
      assert.equal(api.connection.snapshot.where, 'local service');
      assert.equal(api.connection.mode, 'local');
      assert.ok(api.connection.snapshot.team?.team_id, 'a team is selected');
    });

    it('restarts the service once when it dies, then goes offline instead of looping, and Retry brings it back', async () => {
      const first = api.connection.localServicePid!;
      process.kill(first, 'SIGKILL');
      await waitFor(() => api.connection.state === 'connected' && api.connection.localServicePid !== undefined && api.connection.localServicePid !== first, 'the service is restarted', 60_000);
      const second = api.connection.localServicePid!;
      assert.notEqual(second, first);

      process.kill(second, 'SIGKILL');
      await waitFor(() => api.connection.state === 'offline', 'a second crash leaves the extension offline');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(api.connection.state, 'offline', 'no automatic restart loop');
      assert.equal(api.connection.localServicePid, undefined);
      assert.deepEqual(await children(api), [], 'offline: the root is empty so the welcome view shows');

      const state = await vscode.commands.executeCommand('xmodels.connection.retry');
      assert.equal(state, 'connected');
      assert.ok(api.connection.localServicePid);
    });
  });

  describe('train through the multi-step QuickPick', () => {
    it('trains a classifier from a CSV, with Back, a rejected parameter value and the suggested target first', async () => {
      const { result, inputs } = await runCommand<TrainResult>(
        api,
        [
          { enter: true }, // target: the suggested one (churned)
          { back: true }, // model type: Back to the target step
          { pick: /^churned$/ }, // target again
          { enter: true }, // model type: suggested (classifier)
          { pick: 'No partitions' },
          { enter: true }, // drop: the ticked id column
          { input: 'Churn' },
          { pick: 'max_leaves' },
          { input: '2.5' }, // rejected by validation
          { input: '4' },
          { pick: /^Train with these parameters/ },
        ],
        'xmodels.models.train',
        churnFile,
      );
      assert.equal(inputs.asked[0].kind, 'pick');
      assert.equal(inputs.asked[0].step, 1);
      assert.deepEqual(inputs.problems, ['max_leaves must be a whole number between 2 and 64 (got 2.5).']);
      assert.equal(result.target_column, 'churned');
      assert.equal(result.model_type, 'binary_classification');
      assert.ok(result.dataset_id, 'the CSV was uploaded as a dataset, so the model can be refit');
      trained = result;

      const node = await modelNode(api, result.model_id);
      assert.equal(node.model.model_name, 'Churn');
      const item = api.tree.getTreeItem(node);
      assert.equal(item.contextValue, 'model;deletable;copyable;');
      assert.equal(item.description, 'classifier · churned · 1 version');
      assert.ok(item.tooltip instanceof vscode.MarkdownString);
      const selected = api.treeView.selection[0];
      assert.ok(selected && (selected.kind === 'model' || selected.kind === 'version'), 'the new model is revealed and selected');
    });

    it('trains penguins Species from the Explorer as a multiclass classifier and opens its profile and evaluation', async () => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(folder, 'the sample workspace is open');
      const { result } = await runCommand<TrainResult>(
        api,
        [
          { pick: /^(\$\(star-full\) )?Species$/ }, // target
          { pick: /^Classifier \(3 classes: Adelie, Chinstrap, Gentoo\)$/ }, // model type, named with its classes
          { pick: 'No partitions' },
          { enter: true },
          { input: 'Species' },
          { pick: /^Train with these parameters/ },
        ],
        'xmodels.models.train',
        vscode.Uri.joinPath(folder.uri, 'penguins.csv'),
      );
      assert.equal(result.model_type, 'multiclass_classification');
      assert.deepEqual(result.classes, ['Adelie', 'Chinstrap', 'Gentoo']);
      assert.equal(api.tree.getTreeItem(await modelNode(api, result.model_id)).description, 'classifier (3 classes) · Species · 1 version');
      const profile = await vscode.commands.executeCommand<ShownPanel | undefined>('xmodels.panels.profile', {
        kind: 'version',
        modelId: result.model_id,
        versionId: result.version_id,
      });
      assert.deepEqual(await profile?.loaded, { viewType: profile?.viewType, ok: true }, 'the profile panel received its data');
      const evaluation = await vscode.commands.executeCommand<ShownPanel | undefined>('xmodels.panels.evaluation', {
        kind: 'partition',
        modelId: result.model_id,
        versionId: result.version_id,
        partitionId: result.partitions[0].partition_id,
      });
      assert.deepEqual(await evaluation?.loaded, { viewType: evaluation?.viewType, ok: true }, 'the evaluation panel received its data');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('shows the new model’s versions and partitions as the tree’s next levels', async () => {
      const versions = await children(api, await modelNode(api, trained.model_id));
      assert.equal(versions.length, 1);
      const version = versions[0] as VersionNode;
      assert.equal(version.kind, 'version');
      assert.equal(version.version.parameters.method, 'boosted');
      assert.equal(version.version.parameters.max_leaves, 4, 'the edited parameter reached the service');
      const item = api.tree.getTreeItem(version);
      assert.equal(item.label, 'v1');
      assert.match(String(item.description), /^AUC \d\.\d{3} · train · \d{4}-\d\d-\d\d \d\d:\d\d$/, 'the headline metric comes first');
      assert.match(String(item.contextValue), /^version;refittable;.*latest;$/);
      const partitions = await children(api, version);
      assert.equal(partitions.length, 1);
      assert.equal(partitions[0].kind, 'partition');
      assert.equal(api.tree.getTreeItem(partitions[0]).label, 'All data');
      assert.equal(api.tree.getParent(partitions[0]), version);
      assert.equal((api.tree.getParent(version) as ModelNode).modelId, trained.model_id);
    });

    it('trains a new version of a model from another CSV with its target and type fixed', async () => {
      const { result } = await runCommand<TrainResult>(
        api,
        [
          { file: churnLater },
          { pick: 'plan' },
          { many: ['customer_id'] },
          { pick: 'method' }, // the parameter list starts with the fit method
          { pick: 'xplainable' },
          { pick: 'max_depth' }, // offered once the reference method is chosen
          { input: '3' },
          { pick: /^Train with these parameters/ },
        ],
        'xmodels.models.trainVersion',
        await modelNode(api, trained.model_id),
      );
      assert.equal(result.model_id, trained.model_id);
      assert.notEqual(result.version_id, trained.version_id);
      assert.ok(result.partitions.length > 1, 'partitioned on plan');
      const versions = (await children(api, await modelNode(api, trained.model_id))) as VersionNode[];
      assert.deepEqual(versions.map((v) => v.version.version_number), [2, 1], 'newest first');
      assert.equal(versions[0].version.source, 'train');
      assert.deepEqual([versions[0].version.parameters.method, versions[0].version.parameters.max_depth], ['xplainable', 3], 'the method chosen in the parameter list');
      const partitions = (await children(api, versions[0])) as PartitionNode[];
      assert.equal(partitions[0].partition.partition, '__dataset__');
      assert.deepEqual(partitions.slice(1).map((p) => api.tree.getTreeItem(p).label), ['basic', 'plus', 'pro']);
    });
  });

  describe('refit and link preprocessor from a version', () => {
    it('refits chosen features with a new parameter and reveals the new version', async () => {
      const versions = (await children(api, await modelNode(api, trained.model_id))) as VersionNode[];
      const v1 = versions.find((v) => v.version.version_number === 1)!;
      const { result, inputs } = await runCommand<RefitResult>(
        api,
        [{ pick: 'Chosen features' }, { many: ['age', 'support_calls'] }, { pick: 'smoothing' }, { enter: true }, { pick: 'smoothing' }, { input: '2' }, { pick: /^Refit with these parameters/ }],
        'xmodels.models.refit',
        v1,
      );
      const prefilled = inputs.asked.find((a) => a.kind === 'input');
      assert.equal(prefilled?.value, '0', 'the parameter is prefilled with the version’s value');
      assert.equal(result.parent_version_id, v1.versionId);
      assert.deepEqual(Object.keys(result.parameters_changed).sort(), ['age', 'support_calls']);
      assert.deepEqual(result.parameters_changed.age.smoothing, { from: 0, to: 2 });
      const newest = ((await children(api, await modelNode(api, trained.model_id))) as VersionNode[])[0];
      assert.equal(newest.versionId, result.version_id);
      assert.equal(newest.version.source, 'refit');
    });

    it('refits with per-feature parameters', async () => {
      const newest = ((await children(api, await modelNode(api, trained.model_id))) as VersionNode[])[0];
      const { result } = await runCommand<RefitResult>(
        api,
        [{ pick: 'Per-feature parameters' }, { many: ['monthly_spend'] }, { pick: 'monotone' }, { input: '1' }, { pick: /^Refit with these parameters/ }],
        'xmodels.models.refit',
        newest,
      );
      assert.deepEqual(Object.keys(result.parameters_changed), ['monthly_spend']);
      assert.equal((result.parameters_changed.monthly_spend.monotone as { to: number }).to, 1);
    });

    it('creates a preprocessor from a CSV and steps, links it, and the version shows the badge', async () => {
      const version = ((await children(api, await modelNode(api, trained.model_id))) as VersionNode[])[0];
      const { result } = await runCommand<{ preprocessorName: string }>(
        api,
        [
          { pick: /^Create a preprocessor/ },
          { file: churnFile },
          { input: 'churn prep' },
          { pick: /^fill_missing$/ },
          { pick: 'age' },
          { pick: 'median' },
          { enter: true },
          { pick: /^Create the preprocessor with 1 step$/ },
        ],
        'xmodels.models.linkPreprocessor',
        version,
      );
      assert.equal(result.preprocessorName, 'churn prep');
      const linked = ((await children(api, await modelNode(api, trained.model_id))) as VersionNode[]).find((v) => v.versionId === version.versionId)!;
      assert.ok(linked.version.linked_preprocessor, 'the service reports the link');
      const item = api.tree.getTreeItem(linked);
      assert.match(String(item.contextValue), /hasPreprocessor;/);
      assert.match(String(item.description), / · preprocessor$/);
      assert.equal(item.resourceUri?.scheme, 'xmodels-version', 'the badge decoration is attached');

      const again = await runCommand<{ preprocessorName: string; versionNumber: number }>(api, [{ pick: 'churn prep' }, { enter: true }], 'xmodels.models.linkPreprocessor', { modelId: trained.model_id, versionId: trained.version_id });
      assert.equal(again.result.preprocessorName, 'churn prep');
      assert.equal(again.result.versionNumber, 1);
    });
  });

  describe('predict, copy id, errors and delete', () => {
    it('writes <name>.predictions.csv beside the input with predictions, probabilities and contributions', async () => {
      const version = { modelId: trained.model_id, versionId: trained.version_id };
      const { result } = await runCommand<vscode.Uri>(api, [{ file: churnLater }, { pick: 'Predictions and contributions' }], 'xmodels.models.predict', version);
      assert.equal(result.fsPath, join(folder, 'churn-later.predictions.csv'));
      const lines = readFileSync(result.fsPath, 'utf8').trim().split('\n');
      assert.equal(lines.length, 201);
      const header = lines[0].split(',');
      assert.deepEqual(header.slice(0, 6), ['customer_id', 'age', 'plan', 'monthly_spend', 'support_calls', 'churned']);
      assert.ok(header.includes('prediction') && header.includes('probability'), header.join(','));
      assert.ok(header.some((h) => h.startsWith('contribution_')), header.join(','));
      assert.match(lines[1].split(',')[header.indexOf('prediction')], /^(yes|no)$/);
    });

    it('predicts from a CSV with a model picker', async () => {
      const { result } = await runCommand<vscode.Uri>(api, [{ pick: 'Churn' }, { enter: true }, { pick: 'Predictions' }], 'xmodels.models.predict', churnFile);
      const header = readFileSync(result.fsPath, 'utf8').split('\n')[0];
      assert.ok(!header.includes('contribution_'), header);
    });

    it('copies the id of the node it was run on', async () => {
      const { result } = await runCommand<string>(api, [], 'xmodels.models.copyId', { kind: 'version', modelId: trained.model_id, versionId: trained.version_id });
      assert.equal(result, trained.version_id);
      assert.equal(await vscode.env.clipboard.readText(), trained.version_id);
    });

    it('shows an error node (not a toast) when a model’s versions cannot be loaded, and does not cache it', async () => {
      const ghost: ModelNode = { kind: 'model', modelId: 'no-such-model', model: { ...(await modelNode(api, trained.model_id)).model, model_id: 'no-such-model' } };
      const [first] = await children(api, ghost);
      assert.equal(first.kind, 'error');
      assert.match(api.tree.getTreeItem(first).label as string, /^Could not load: /);
      assert.equal(api.tree.getTreeItem(first).command?.command, 'xmodels.connection.showLog');
      const [second] = await children(api, ghost);
      assert.notEqual(second, first, 'errors are loaded again, not cached');
    });

    it('reports a service error from a command with its detail', async () => {
      const failures: string[] = [];
      const listener = api.commands.onDidFailCommand((failure) => failures.push(failure.message));
      api.inputs.use(new ScriptedInputs([{ file: churnLater }, { pick: 'No partitions' }, { enter: true }, { enter: true }]));
      try {
        await vscode.commands.executeCommand('xmodels.models.trainVersion', { modelId: trained.model_id, model: { ...(await modelNode(api, trained.model_id)).model, target_name: 'plan' } });
      } finally {
        api.inputs.use(undefined);
        listener.dispose();
      }
      assert.equal(failures.length, 1);
      assert.match(failures[0], /^Train New Version from CSV failed: /);
    });

    it('stays silent when the user cancels a prompt', async () => {
      const failures: string[] = [];
      const listener = api.commands.onDidFailCommand((failure) => failures.push(failure.message));
      api.inputs.use(Object.assign(new ScriptedInputs([]), { pickCsvFile: () => Promise.resolve(undefined) }));
      try {
        const result = await vscode.commands.executeCommand('xmodels.models.train');
        assert.equal(result, undefined);
      } finally {
        api.inputs.use(undefined);
        listener.dispose();
      }
      assert.deepEqual(failures, []);
    });

    it('deletes a model only after confirmation', async () => {
      const kept = await runCommand<boolean>(api, [{ confirm: false }], 'xmodels.models.delete', await modelNode(api, trained.model_id));
      assert.equal(kept.result, false);
      await modelNode(api, trained.model_id);
      const deleted = await runCommand<boolean>(api, [{ confirm: true }], 'xmodels.models.delete', await modelNode(api, trained.model_id));
      assert.equal(deleted.result, true);
      assert.ok(!(await children(api)).some((n) => n.kind === 'model' && n.modelId === trained.model_id));
    });
  });

  describe('model list paging', () => {
    it('ends the list in a Load more node beyond the page size', async () => {
      const config = vscode.workspace.getConfiguration('xmodels');
      const client = await api.services.getClient();
      for (let i = 0; (await client.models.listTeamModels()).length < 12; i++) {
        await client.models.trainModel({ target_column: 'churned', model_name: `paging ${i}`, csv_content: churnCsv(40, i + 20), drop_columns: ['customer_id'] });
      }
      await config.update('models.pageSize', 10, vscode.ConfigurationTarget.Global);
      try {
        api.tree.refresh();
        const root = await children(api);
        const total = (await client.models.listTeamModels()).length;
        assert.equal(root.filter((n) => n.kind === 'model').length, 10);
        const more = root[root.length - 1];
        assert.equal(more.kind, 'loadMore');
        assert.equal(api.tree.getTreeItem(more).description, `10 of ${total} shown`);
        await vscode.commands.executeCommand('xmodels.models.loadMore');
        assert.equal((await children(api)).filter((n) => n.kind === 'model').length, Math.min(20, total));
      } finally {
        await config.update('models.pageSize', undefined, vscode.ConfigurationTarget.Global);
      }
    });
  });

  describe('hosted connection, with a second local service standing in for the hosted one', () => {
    let standIn: StandIn;

    before(async () => {
      standIn = await startStandIn();
    });

    after(async () => {
      await vscode.commands.executeCommand('xmodels.connection.useLocal');
      await vscode.workspace.getConfiguration('xmodels').update('hosted.baseUrl', undefined, vscode.ConfigurationTarget.Global);
      standIn.stop();
    });

    it('rejects a wrong key at once, accepts the right one and asks for the team when the key has several', async () => {
      const { result, inputs } = await runCommand<string>(
        api,
        [{ input: standIn.url }, { input: 'xm_not_a_key' }, { input: standIn.apiKey }, { pick: 'Beta' }],
        'xmodels.connection.useHosted',
      );
      assert.equal(result, 'connected');
      assert.equal(inputs.problems.length, 1, inputs.problems.join('\n'));
      assert.match(inputs.problems[0], /^Not accepted: /);
      assert.equal(api.connection.mode, 'hosted');
      assert.equal(api.connection.snapshot.where, new URL(standIn.url).host);
      assert.equal(api.connection.snapshot.team?.team_name, 'Beta');
      assert.equal(api.connection.localServicePid, undefined, 'the local service is stopped in hosted mode');
      assert.equal(vscode.workspace.getConfiguration('xmodels').get('hosted.baseUrl'), standIn.url);
      assert.ok(!JSON.stringify(api.connection.snapshot).includes(standIn.apiKey), 'the key is not part of the visible state');
    });

    it('lists the chosen team’s models and switches team', async () => {
      const client = await api.services.getClient();
      await client.models.trainModel({ target_column: 'churned', model_name: 'beta model', csv_content: churnCsv(60, 3), drop_columns: ['customer_id'] });
      api.tree.refresh();
      const names = async () => (await children(api)).filter((n): n is ModelNode => n.kind === 'model').map((n) => n.model.model_name);
      assert.deepEqual(await names(), ['beta model']);

      const { result } = await runCommand<string>(api, [{ pick: 'Alpha' }], 'xmodels.connection.selectTeam');
      assert.equal(result, standIn.alphaTeamId);
      assert.equal(api.connection.snapshot.team?.team_name, 'Alpha');
      await waitFor(async () => (await names()).length === 0, 'the tree shows the Alpha team (no models)');
    });

    it('keeps the stored key: reconnecting needs no prompt', async () => {
      const { result } = await runCommand<string>(api, [], 'xmodels.connection.retry');
      assert.equal(result, 'connected');
      assert.equal(api.connection.snapshot.team?.team_name, 'Alpha', 'the chosen team is remembered');
    });

    it('goes offline once when the hosted service stops, and the tree shows the welcome view', async () => {
      standIn.stop();
      await waitFor(() => standIn.exited, 'the stand-in service stopped');
      api.tree.refresh();
      assert.deepEqual(await children(api), []);
      // Offline once a health check confirms the service is gone (a stale request's failure alone is not enough).
      await waitFor(() => api.connection.state === 'offline', 'the extension goes offline');
      assert.deepEqual(await children(api), [], 'a second load stays quiet and empty');
    });
  });

  describe('figures (printed, never asserted against a time)', () => {
    it('renders the first tree level of 1,000 models', async () => {
      const start = Date.UTC(2026, 0, 1);
      const models: ModelInfo[] = Array.from({ length: 1000 }, (_, i) => ({
        model_id: `bench-${i}`,
        model_name: `model ${i}`,
        model_description: '',
        model_type: i % 2 ? 'regression' : 'binary_classification',
        target_name: 'y',
        algorithm: i % 2 ? 'XRegressor' : 'XClassifier',
        partition_on: null,
        team_id: 'bench',
        created: new Date(start + i * 60_000).toISOString(),
        created_by: 'bench',
        number_of_versions: 1,
        latest_version_id: `bench-v-${i}`,
        archived: false,
      }));
      const changed = new vscode.EventEmitter<void>();
      const connection: TreeConnection = {
        state: 'connected',
        features: { deleteModel: true, predict: true, preprocessors: true, sources: true, copyModel: true, edits: true },
        onDidChangeConnection: changed.event,
        getClient: async () => ({ models: { listTeamModels: async () => models } }) as unknown as XModelsClient,
        start: () => undefined,
        reportUnreachable: () => undefined,
      };
      const log = vscode.window.createOutputChannel('XModels figures', { log: true });
      for (const pageSize of [200, 1000]) {
        const provider = new ModelsTreeDataProvider(connection, new ContextKeys(), log, () => pageSize);
        const started = performance.now();
        const root = await provider.getChildren();
        const items = root.map((node) => provider.getTreeItem(node));
        const ms = performance.now() - started;
        console.log(`    first tree level, 1,000 models, page ${pageSize}: ${items.length} items in ${ms.toFixed(1)} ms`);
        assert.equal(items.length, pageSize === 1000 ? 1000 : 201);
        assert.equal(items[0].label, 'model 999', 'newest first');
        provider.dispose();
      }
      console.log(`    activation: ${api.activationMs.toFixed(1)} ms`);
      log.dispose();
      changed.dispose();
    });
  });

  after(() => rmSync(folder, { recursive: true, force: true }));
});

interface StandIn {
  url: string;
  /** A key of the Alpha team that is also granted the Beta team. */
  apiKey: string;
  alphaTeamId: string;
  readonly exited: boolean;
  stop(): void;
}

/**
 * Starts another local service in a temp folder as the "hosted" service, with a key for two teams (the CLI creates
 * keys for one team, so the second grant is written to its database before the service starts).
 */
async function startStandIn(): Promise<StandIn> {
  const extensionPath = vscode.extensions.getExtension('xmodels.xmodels')!.extensionPath;
  const cli = join(extensionPath, 'dist', 'cli.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'xmodels-hosted-'));
  const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  const runCli = (...args: string[]) => {
    const run = spawnSync(process.execPath, [cli, ...args, '--data-dir', dataDir], { env, encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout.trim().split('\n').pop()!) as { api_key: string; team_id: string };
  };
  const alpha = runCli('keys', 'create', '--team', 'Alpha');
  const beta = runCli('keys', 'create', '--team', 'Beta');
  const grant = `const { Database } = require(${JSON.stringify(join(extensionPath, 'node_modules', 'node-sqlite3-wasm'))});
const db = new Database(${JSON.stringify(join(dataDir, 'xmodels.db'))});
db.run('INSERT INTO key_teams (key_hash, team_id) VALUES (?, ?)', [${JSON.stringify(createHash('sha256').update(alpha.api_key).digest('hex'))}, ${JSON.stringify(beta.team_id)}]);
db.close();`;
  const granted = spawnSync(process.execPath, ['-e', grant], { env, encoding: 'utf8' });
  assert.equal(granted.status, 0, granted.stderr);

  const child: ChildProcess = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dataDir], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  let exited = false;
  child.on('exit', () => {
    exited = true;
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = new LineSplitter();
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of lines.push(chunk)) {
        const info = parseServiceLine(line);
        if (info) resolve(info.url);
      }
    });
    child.on('exit', (code) => reject(new Error(`the stand-in service exited with ${code}`)));
  });
  return {
    url,
    apiKey: alpha.api_key,
    alphaTeamId: alpha.team_id,
    get exited() {
      return exited;
    },
    stop: () => {
      if (!exited) child.kill('SIGTERM');
    },
  };
}
