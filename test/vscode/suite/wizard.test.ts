// The autotrain commands in a real VS Code against the embedded local service, with every prompt answered by the test:
// either a scripted prompter passed as the commands' last argument, or a stand-in for the extension's shared prompts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { XModelsExtensionApi } from '../../../src/extension';
import type { DatasetSummaryPayload, InsightsResult, TrainedModel } from '../../../src/commands/autotrain';
import { BACK, type PickItem, type PickRequest, type PromptPosition, type Prompter } from '../../../src/prompts/prompter';
import { ScriptedPrompter } from '../../unit/prompts/scriptedPrompter';

async function extensionApi(): Promise<XModelsExtensionApi> {
  const ext = vscode.extensions.getExtension<XModelsExtensionApi>('xmodels.xmodels');
  assert.ok(ext, 'the XModels extension is installed');
  return ext.activate();
}

function workspaceCsv(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the sample workspace is open');
  return vscode.Uri.joinPath(folder.uri, name);
}

interface SharedPrompt {
  kind: 'pick' | 'pickMany' | 'input' | 'openCsv';
  title?: string;
  step?: number;
  labels: string[];
  picked: string[];
}

/**
 * Stands in for the shared prompts: accepts every default (first row, pre-selected rows, pre-filled text), presses
 * Back once at the steps listed in `backAt`, and deselects everything in multi-selects listed in `clearAt`.
 */
function acceptingInputs(csv: vscode.Uri, options: { backAt?: number[]; clearAt?: number[] } = {}) {
  const prompts: SharedPrompt[] = [];
  const backAt = [...(options.backAt ?? [])];
  /** Records the prompt; true when the test presses Back on it. */
  const record = (kind: SharedPrompt['kind'], position: Partial<PromptPosition>, items: readonly PickItem<unknown>[] = []): boolean => {
    prompts.push({ kind, title: position.title, step: position.step, labels: items.map((i) => i.label), picked: items.filter((i) => i.picked).map((i) => i.label) });
    const index = backAt.indexOf(position.step ?? -1);
    if (index < 0) return false;
    backAt.splice(index, 1);
    return true;
  };
  const rows = async <T>(request: PickRequest<T>) => (await request.items).filter((item) => !item.separator);
  const inputs: Prompter = {
    async pickOne(request) {
      const items = await rows(request);
      return record('pick', request.position, items) ? BACK : items[0].value;
    },
    async pickMany(request) {
      const items = await rows(request);
      if (record('pickMany', request.position, items)) return BACK;
      return options.clearAt?.includes(request.position.step ?? -1) ? [] : items.filter((item) => item.picked).map((item) => item.value);
    },
    async input(request) { return record('input', request.position) ? BACK : request.value; },
    async pickCsvFile(title) { record('openCsv', { title }); return csv.fsPath; },
    async confirm() { return true; },
  };
  return { inputs, prompts };
}

describe('autotrain wizard in VS Code', function () {
  this.timeout(240_000);
  let api: XModelsExtensionApi;
  let failures: string[];
  let listener: vscode.Disposable;
  const cars = () => workspaceCsv('cars.csv');

  before(async () => {
    api = await extensionApi();
  });
  beforeEach(() => {
    failures = [];
    listener = api.commands.onDidFailCommand((failure) => failures.push(failure.message));
  });
  afterEach(() => {
    api.inputs.use(undefined);
    listener.dispose();
  });

  async function assertModelListed(model: TrainedModel | undefined, name: string): Promise<void> {
    assert.deepEqual(failures, []);
    assert.ok(model, 'the command resolved to the trained model');
    const client = await api.services.getClient();
    assert.equal((await client.models.getModel(model.modelId)).model_name, name);
    assert.ok(await api.tree.findModel(model.modelId), 'the model appears in the Models view');
    assert.ok(await api.tree.findVersion(model.modelId, model.versionId), 'its version appears in the Models view');
  }

  it('runs the wizard end to end with Back, follows the job and reveals the model', async () => {
    const prompter = new ScriptedPrompter([
      { id: 'summary', reply: 'accept' },
      { id: 'label', reply: 'accept' },
      { id: 'goals', reply: 'accept' },
      { id: 'features', reply: 'back' },
      { id: 'goals', reply: 'accept' },
      { id: 'features', reply: 'accept' },
      { id: 'name', reply: { text: 'cars wizard' } },
      { id: 'description', reply: 'accept' },
      { id: 'confirm', reply: 'accept' },
    ]);
    const model = await vscode.commands.executeCommand<TrainedModel | undefined>('xmodels.autotrain.start', cars(), { prompter });
    await assertModelListed(model, 'cars wizard');
    assert.equal(prompter.remaining, 0);
    const summary = prompter.prompts[0];
    assert.deepEqual(summary.labels.slice(1), ['Name', 'Miles_per_Gallon', 'Cylinders', 'Displacement', 'Horsepower', 'Weight_in_lbs', 'Acceleration', 'Year', 'Origin']);
    assert.match(prompter.prompts[1].labels.length ? prompter.prompts[1].labels[0] : '', /\S/);
    assert.ok(prompter.prompts[3].picked.length > 0, 'recommended steps start selected');
  });

  it('answers through the shared prompts: titles, step numbers, Back, and a custom preprocessor when steps are cleared', async () => {
    const { inputs, prompts } = acceptingInputs(cars(), { backAt: [4], clearAt: [4] });
    api.inputs.use(inputs);
    const model = await vscode.commands.executeCommand<TrainedModel | undefined>('xmodels.autotrain.start', cars());
    await assertModelListed(model, 'cars');
    assert.deepEqual(prompts.map((p) => `${p.kind}@${p.step}`), [
      'pick@1', 'pick@2', 'pickMany@3', 'pickMany@4', 'pickMany@3', 'pickMany@4', 'input@5', 'input@6', 'pick@7',
    ]);
    assert.ok(prompts.every((p) => p.title === 'Autotrain: cars.csv'));
    const client = await api.services.getClient();
    assert.ok((await client.preprocessors.list()).some((p) => p.name === 'cars preprocessing'));
  });

  it('summarizes a CSV into the dataset summary panel, then trains with a label and creates a preprocessor from it', async () => {
    const payload = await vscode.commands.executeCommand<DatasetSummaryPayload | undefined>('xmodels.autotrain.summarize', cars());
    assert.deepEqual(failures, []);
    assert.ok(payload);
    assert.equal(payload.summary.file_name, 'cars.csv');
    assert.equal(payload.summary.rows, 406);
    assert.ok(payload.labels.length > 0 && payload.goals.length > 0 && payload.recommendations.length > 0);

    const label = payload.labels[0];
    const prompter = new ScriptedPrompter([{ id: 'name', reply: { text: `cars by ${label.column}` } }]);
    const model = await vscode.commands.executeCommand<TrainedModel | undefined>(
      'xmodels.autotrain.trainWithLabel', { summary: payload.summary, label }, { prompter },
    );
    await assertModelListed(model, `cars by ${label.column}`);

    const created = await vscode.commands.executeCommand<{ preprocessor_id: string; version_id: string } | undefined>(
      'xmodels.preprocessors.createFromSteps', { summary: payload.summary, steps: payload.recommendations },
      { prompter: new ScriptedPrompter([{ id: 'name', reply: 'accept' }]) },
    );
    assert.deepEqual(failures, []);
    assert.ok(created);
    const client = await api.services.getClient();
    const versions = await client.preprocessors.listVersions(created.preprocessor_id);
    assert.deepEqual(versions.map((v) => v.version_id), [created.version_id]);
    assert.deepEqual(versions[0].steps, payload.recommendations.map((r) => r.step));
  });

  it('shows insights for a picked CSV and goal as a Markdown document with their evidence', async () => {
    const { inputs, prompts } = acceptingInputs(cars());
    api.inputs.use(inputs);
    const result = await vscode.commands.executeCommand<InsightsResult | undefined>('xmodels.autotrain.insights');
    assert.deepEqual(failures, []);
    assert.ok(result);
    assert.deepEqual(prompts.map((p) => p.kind), ['openCsv', 'pick']);
    assert.equal(result.document.languageId, 'markdown');
    const text = result.document.getText();
    assert.ok(text.startsWith(`# Insights: ${result.insights.goal.question}`));
    assert.ok(result.insights.insights.length > 0);
    for (const insight of result.insights.insights) assert.ok(text.includes(`## ${insight.title}`));
    assert.equal(vscode.window.activeTextEditor?.document, result.document);
  });

  it('opens the visualization panel for a goal passed by the summary panel', async () => {
    const payload = await vscode.commands.executeCommand<DatasetSummaryPayload | undefined>('xmodels.autotrain.summarize', cars());
    assert.ok(payload);
    const goal = payload.goals[0];
    const target = await vscode.commands.executeCommand<{ goal: unknown } | undefined>(
      'xmodels.autotrain.visualizeGoal', { summary: payload.summary, goal },
    );
    assert.deepEqual(failures, []);
    assert.deepEqual(target?.goal, goal);
  });

  it('reports an invalid payload with the field that is wrong', async () => {
    const result = await vscode.commands.executeCommand('xmodels.autotrain.trainWithLabel', { summary: { name: 'x' }, label: 'y' });
    assert.equal(result, undefined);
    assert.equal(failures.length, 1);
    assert.match(failures[0], /xmodels\.autotrain\.trainWithLabel received an invalid summary\./);
  });
});
