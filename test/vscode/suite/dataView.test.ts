// The Data view in a real VS Code: a DuckDB connection added through the command (its URL kept in the secret
// storage), its table in the tree, a model trained and a summary made from the table, the connection sent again
// after the local service restarts, and passwords kept out of settings, global state and what the view shows.
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import * as vscode from 'vscode';
import type { TrainedModel } from '../../../src/commands/autotrain/trainingProgress';
import type { Connection } from '../../../src/contract';
import type { DatasetSummaryPayload } from '../../../src/commands/autotrain';
import type { XModelsExtensionApi } from '../../../src/extension';
import type { ConnectionNode, DataNode, SchemaNode, TableNode, UnrestoredNode } from '../../../src/tree/data/dataNodes';
import { runCommand, ScriptedInputs, waitFor, xmodelsApi } from './hostInputs';

const folder = mkdtempSync(join(tmpdir(), 'xmodels-data-'));
const databaseFile = join(folder, 'shop.db');
const PASSWORD = 'Wh1te-Rabbit-42';

/** `shop.db` with one table, main.penguins, read from the sample CSV the extension ships. */
async function createDatabase(extensionPath: string): Promise<void> {
  const instance = await DuckDBInstance.create(databaseFile);
  const connection = await instance.connect();
  const csv = join(extensionPath, 'media', 'datasets', 'penguins.csv').replace(/'/g, "''");
  await connection.run(`CREATE TABLE penguins AS SELECT * FROM read_csv('${csv}', header = true)`);
  connection.closeSync();
  instance.closeSync();
}

async function dataChildren(api: XModelsExtensionApi, node?: DataNode): Promise<DataNode[]> {
  return (await api.dataTree.getChildren(node)) ?? [];
}

async function penguinsNode(api: XModelsExtensionApi): Promise<TableNode> {
  const shop = (await dataChildren(api)).find((node): node is ConnectionNode => node.kind === 'connection' && node.name === 'shop');
  assert.ok(shop, 'the connection shop is in the Data view');
  const [main] = (await dataChildren(api, shop)) as SchemaNode[];
  assert.equal(main.kind, 'schema');
  const [penguins] = (await dataChildren(api, main)) as TableNode[];
  assert.equal(penguins.kind, 'table');
  return penguins;
}

/** Everything the extension keeps outside the secret storage: its settings and its global state. */
function keptInTheClear(api: XModelsExtensionApi): string {
  const settings = JSON.stringify(vscode.workspace.getConfiguration('xmodels'));
  const state = JSON.stringify(api.globalState.keys().map((key) => [key, api.globalState.get(key)]));
  return `${settings}\n${state}`;
}

describe('XModels Data view', function () {
  let api: XModelsExtensionApi;

  before(async () => {
    api = await xmodelsApi();
    await createDatabase(vscode.extensions.getExtension('xmodels.xmodels')!.extensionPath);
    await vscode.commands.executeCommand('xmodels.data.focus');
    await waitFor(() => api.connection.state === 'connected', 'the local service is connected', 60_000);
  });

  it('adds a DuckDB connection after telling what to fix in a wrong URL, and shows its table with a row estimate', async () => {
    const { result, inputs } = await runCommand<Connection>(
      api,
      [{ input: 'shop' }, { input: 'duckdb://shop.db' }, { input: `duckdb://${databaseFile}` }],
      'xmodels.data.addConnection',
    );
    assert.equal(inputs.problems.length, 1);
    assert.match(inputs.problems[0], /absolute path after duckdb:\/\//);
    assert.deepEqual(result, { name: 'shop', kind: 'duckdb', tables: 1, origin: 'api' });
    assert.ok(api.dataConnections.names().includes('shop'));

    const shop = (await dataChildren(api)).find((node) => node.kind === 'connection' && node.name === 'shop')!;
    const item = api.dataTree.getTreeItem(shop);
    assert.equal(item.description, 'DuckDB · 1 table');
    assert.equal(item.contextValue, 'dataConnection;removable;');
    const penguins = await penguinsNode(api);
    assert.equal(penguins.table.table, 'penguins');
    assert.equal(api.dataTree.getTreeItem(penguins).contextValue, 'dataTable;');
    assert.match(String(api.dataTree.getTreeItem(penguins).description), /^~\d+ rows$/);
    assert.equal(api.dataTree.getParent(penguins)?.kind, 'schema');
  });

  it('trains a multiclass model from the table as a job, reading its rows from the database', async () => {
    const { result } = await runCommand<TrainedModel>(
      api,
      [
        { pick: /^(\$\(star-full\) )?Species$/ },
        { pick: /^Classifier \(3 classes\)$/ },
        { pick: 'No partitions' },
        { enter: true },
        { input: 'Penguins from DuckDB' },
        { pick: /^Train with these parameters/ },
      ],
      'xmodels.data.trainTable',
      await penguinsNode(api),
    );
    const client = await api.services.getClient();
    const model = await client.models.getModel(result.modelId);
    assert.equal(model.model_type, 'multiclass_classification');
    assert.deepEqual(model.classes, ['Adelie', 'Chinstrap', 'Gentoo']);
    const [version] = await client.models.listModelVersions(result.modelId);
    assert.equal(version.version_id, result.versionId);
    assert.deepEqual(version.dataset_source, { connection: 'shop', table: 'main.penguins' });
    const dataset = (await client.datasets.list()).find((d) => d.dataset_id === version.dataset_id);
    assert.equal(dataset?.rows, 344, 'the data set counts the table’s rows');
  });

  it('summarizes the table into the dataset summary panel', async () => {
    const { result } = await runCommand<DatasetSummaryPayload>(api, [], 'xmodels.data.summarizeTable', await penguinsNode(api));
    assert.equal(result.summary.rows, 344);
    assert.ok(result.summary.columns.includes('Body Mass (g)'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('sends the stored connections again when the local service restarts', async () => {
    const first = api.connection.localServicePid!;
    process.kill(first, 'SIGKILL');
    await waitFor(
      () => api.connection.state === 'connected' && api.connection.localServicePid !== undefined && api.connection.localServicePid !== first,
      'the service is restarted',
      60_000,
    );
    const listed = await (await api.services.getClient()).connections.list();
    assert.deepEqual(listed.map((c) => c.name), ['shop']);
    assert.equal((await penguinsNode(api)).table.table, 'penguins', 'the tree reads the restored connection');
    // Re-arms the one automatic restart, which the core suite's crash test counts on.
    assert.equal(await vscode.commands.executeCommand('xmodels.connection.retry'), 'connected');
  });

  it('keeps a password out of settings, global state and the view, even when the connection cannot be restored', async () => {
    const url = `postgres://ana:${PASSWORD}@127.0.0.1:9/sales`;
    await api.dataConnections.save('warehouse', url);
    assert.equal(await vscode.commands.executeCommand('xmodels.connection.retry'), 'connected');
    const problem = api.dataConnections.unrestored().get('warehouse');
    assert.ok(problem, 'the unreachable server is reported');
    assert.ok(!problem.includes(PASSWORD), problem);
    const node = (await dataChildren(api)).find((n): n is UnrestoredNode => n.kind === 'unrestored');
    assert.ok(node);
    assert.equal(node.name, 'warehouse');
    const item = api.dataTree.getTreeItem(node);
    assert.ok(!JSON.stringify(item).includes(PASSWORD));
    assert.equal(item.contextValue, 'unrestored;removable;');
    assert.ok(!keptInTheClear(api).includes(PASSWORD), 'no password in settings or global state');
    assert.ok(keptInTheClear(api).includes('warehouse'), 'the names are in global state');

    const { result: removed } = await runCommand<boolean>(api, [{ confirm: true }], 'xmodels.data.removeConnection', node);
    assert.equal(removed, true);
    assert.deepEqual(api.dataConnections.names(), ['shop']);
  });

  it('refuses a connection the service cannot open, saying why without the password, and stores nothing', async () => {
    const failures: string[] = [];
    const listener = api.commands.onDidFailCommand((failure) => failures.push(failure.message));
    try {
      api.inputs.use(new ScriptedInputs([{ input: 'crm' }, { input: `postgres://ana:${PASSWORD}@127.0.0.1:9/crm` }]));
      await vscode.commands.executeCommand('xmodels.data.addConnection');
    } finally {
      api.inputs.use(undefined);
      listener.dispose();
    }
    assert.equal(failures.length, 1);
    assert.match(failures[0], /crm/);
    assert.ok(!failures[0].includes(PASSWORD), failures[0]);
    assert.ok(!api.dataConnections.names().includes('crm'));
  });

  it('removes a connection: the service forgets it and its URL leaves the secret storage', async () => {
    const shop = (await dataChildren(api)).find((node) => node.kind === 'connection' && node.name === 'shop');
    const { result } = await runCommand<boolean>(api, [{ confirm: true }], 'xmodels.data.removeConnection', shop);
    assert.equal(result, true);
    assert.deepEqual(api.dataConnections.names(), []);
    assert.deepEqual(await (await api.services.getClient()).connections.list(), []);
    assert.deepEqual(await dataChildren(api), [], 'an empty view shows its welcome content');
  });
});
