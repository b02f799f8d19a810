// The panels in a real VS Code against the embedded local service: each opens from its command with a tree node
// (or the autotrain payload), and its webview gets its data from the host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { XModelsClient } from '../../../src/client';
import type { Goal } from '../../../src/contract/autotrain';
import type { XModelsExtensionApi } from '../../../src/extension';
import type { ShownPanel } from '../../../src/panels';
import { VIEW_TYPES } from '../../../src/views/protocol';
import { binaryCsv } from '../../unit/panels/fixtures';

interface Trained {
  modelId: string;
  versionId: string;
  partitionId: string;
}

function workspaceCsv(name: string): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the sample workspace is open');
  return vscode.Uri.joinPath(folder.uri, name).fsPath;
}

function webviewTabs(viewType: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewType));
}

/** The panel's tab label once it matches (the title changes when the data has arrived). */
async function tabLabel(viewType: string, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const label = webviewTabs(viewType)[0]?.label ?? '';
    if (pattern.test(label) || Date.now() > deadline) return label;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function open(command: string, argument: unknown): Promise<ShownPanel> {
  const shown = await vscode.commands.executeCommand<ShownPanel | undefined>(command, argument);
  assert.ok(shown, `${command} resolved to its panel`);
  return shown;
}

async function assertLoaded(shown: ShownPanel, viewType: string): Promise<void> {
  assert.equal(shown.viewType, viewType);
  const load = await shown.loaded;
  assert.deepEqual(load, { viewType, ok: true }, `the ${viewType} panel received its data`);
  // The data is posted as soon as it is read, which can be before the window's tab model lists the new tab.
  const deadline = Date.now() + 10_000;
  while (webviewTabs(viewType).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.equal(webviewTabs(viewType).length, 1, `one ${viewType} tab is open`);
}

describe('panels in VS Code', function () {
  this.timeout(240_000);
  let api: XModelsExtensionApi;
  let client: XModelsClient;
  let classifier: Trained;
  let regressor: Trained;
  let failures: string[];
  let listener: vscode.Disposable;

  async function train(file: string, target: string, modelType: 'classifier' | 'regressor', name: string): Promise<Trained> {
    const result = await client.models.trainModel({
      file_path: file,
      target_column: target,
      model_type: modelType,
      model_name: name,
    });
    return { modelId: result.model_id, versionId: result.version_id, partitionId: result.partitions[0].partition_id };
  }

  before(async () => {
    const ext = vscode.extensions.getExtension<XModelsExtensionApi>('xmodels.xmodels');
    assert.ok(ext, 'the XModels extension is installed');
    api = await ext.activate();
    client = await api.services.getClient();
    const churn = vscode.Uri.joinPath(vscode.Uri.file(workspaceCsv('penguins.csv')), '..', 'panels-binary.csv');
    await vscode.workspace.fs.writeFile(churn, Buffer.from(binaryCsv(6, 300)));
    classifier = await train(churn.fsPath, 'target', 'classifier', 'panels-classifier');
    regressor = await train(workspaceCsv('penguins.csv'), 'Body Mass (g)', 'regressor', 'panels-regressor');
  });
  beforeEach(() => {
    failures = [];
    listener = api.commands.onDidFailCommand((failure) => failures.push(failure.message));
  });
  afterEach(async () => {
    listener.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opens the profile of a classifier version from its tree node, once per version', async () => {
    const node = { kind: 'version', modelId: classifier.modelId, versionId: classifier.versionId };
    const shown = await open('xmodels.panels.profile', node);
    await assertLoaded(shown, VIEW_TYPES.profile);
    const again = await open('xmodels.panels.profile', node);
    assert.equal(again.key, shown.key);
    assert.equal(webviewTabs(VIEW_TYPES.profile).length, 1, 'opening it again reveals the same panel');
    assert.match(await tabLabel(VIEW_TYPES.profile, /^v\d+ · Profile$/), /^v\d+ · Profile$/, 'the loaded version names the tab');
    assert.deepEqual(failures, []);
  });

  it('opens the profile of a regressor from a partition node', async () => {
    const node = { kind: 'partition', ...regressor };
    await assertLoaded(await open('xmodels.panels.profile', node), VIEW_TYPES.profile);
  });

  it('opens the evaluation of a classifier and of a regressor partition', async () => {
    await assertLoaded(await open('xmodels.panels.evaluation', { kind: 'partition', ...classifier }), VIEW_TYPES.evaluation);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const node = { kind: 'partition', ...regressor, model: { model_name: 'penguins' }, versionNumber: 4 };
    await assertLoaded(await open('xmodels.panels.evaluation', node), VIEW_TYPES.evaluation);
    const title = /^penguins v4 · Evaluation · All data$/;
    assert.match(await tabLabel(VIEW_TYPES.evaluation, title), title);
  });

  it('exports a version as Python from its node and as SQL from the profile panel in front', async () => {
    const node = { kind: 'version', ...classifier, model: { model_name: 'panels-binary' }, version: { version_number: 1 } };
    const python = await vscode.commands.executeCommand<vscode.TextDocument>('xmodels.models.exportPython', node);
    assert.equal(python.languageId, 'python');
    assert.ok(python.isUntitled, 'the export is a new untitled file');
    assert.match(python.getText(), /^r"""panels-binary v1: an XModels classifier/);
    const profile = await client.models.getModelProfile(classifier.versionId);
    if (profile.model_type === 'multiclass_classification') assert.fail('a two-valued target gives a binary profile');
    for (const feature of Object.keys({ ...profile.partitions[0].numeric, ...profile.partitions[0].categorical })) {
      assert.ok(python.getText().includes(JSON.stringify(feature)), `the Python names ${feature}`);
    }
    await assertLoaded(await open('xmodels.panels.profile', { versionId: classifier.versionId }), VIEW_TYPES.profile);
    const sql = await vscode.commands.executeCommand<vscode.TextDocument>('xmodels.models.exportSql');
    assert.equal(sql.languageId, 'sql');
    assert.match(sql.getText(), /xm_score/);
    for (const document of [python, sql]) {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('opens the feature info of a version', async () => {
    const node = { kind: 'version', modelId: regressor.modelId, versionId: regressor.versionId };
    await assertLoaded(await open('xmodels.panels.featureInfo', node), VIEW_TYPES.featureInfo);
  });

  it('shows a dataset summary with its goals and labels, and the chart code of a goal', async () => {
    const summary = await client.autotrain.summarizeDataset({ file_path: workspaceCsv('cars.csv') });
    const { goals } = await client.autotrain.generateGoals({ summary, n: 2 });
    const { labels } = await client.autotrain.generateLabels({ summary });
    await assertLoaded(await open('xmodels.panels.datasetSummary', { summary, goals, labels }), VIEW_TYPES.datasetSummary);
    const goal: Goal = goals[0];
    const shown = await open('xmodels.panels.visualization', { summary, goal, library: 'matplotlib' });
    await assertLoaded(shown, VIEW_TYPES.visualization);
    assert.deepEqual(failures, []);
  });

  it('reports the failed load of an unknown version in the panel, not as a crash', async () => {
    const shown = await open('xmodels.panels.featureInfo', { versionId: 'no-such-version' });
    const load = await shown.loaded;
    assert.equal(load.ok, false);
    assert.match(load.error?.message ?? '', /no-such-version/);
  });

  it('says where to open a panel from when the command has no object', async () => {
    assert.equal(await vscode.commands.executeCommand('xmodels.panels.evaluation'), undefined);
    assert.equal(failures.length, 1);
    assert.match(failures[0], /from a partition of a model version in the XModels view/);
  });
});
