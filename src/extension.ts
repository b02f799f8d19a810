import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { translateWith } from './l10n/l10n';
import type { ConnectInfo } from './contract';
import { CommandRegistry } from './common/commandRegistry';
import { ContextKeys } from './common/contextKeys';
import { MaskedLog } from './common/logger';
import type { XModelsServices } from './common/services';
import { SettingsAccessor } from './common/settings';
import { textGenConfigFrom } from './common/textgen';
import { TextGenKeyStore } from './common/textGenKey';
import { registerAutotrain } from './commands/autotrain';
import { CompareCommand } from './commands/compareCommand';
import { ConnectionCommands } from './commands/connectionCommands';
import { CopyModelCommand } from './commands/copyModelCommand';
import { EditsCommands } from './commands/editsCommands';
import { DataCommands } from './commands/dataCommands';
import { ExportCommand } from './commands/exportCommand';
import { ReportCommand } from './commands/reportCommand';
import { LinkPreprocessorCommand } from './commands/linkPreprocessorCommand';
import { ModelCommands } from './commands/modelCommands';
import { PredictCommand } from './commands/predictCommand';
import { RefitCommand } from './commands/refitCommand';
import { SaveEditsCommand } from './commands/saveEditsCommand';
import { TrainCommands } from './commands/trainCommands';
import { ConnectionManager } from './connection/connectionManager';
import { DataConnectionStore } from './connection/dataConnectionStore';
import { HostedAuthProvider } from './connection/hostedAuthProvider';
import { ConnectionStatusBar } from './connection/statusBar';
import { TextGenKeyConsent, type ServiceTarget } from './flows/autotrain/textGenKeyConsent';
import { registerPanels } from './panels';
import { SwitchablePrompter } from './prompts/vscodePrompter';
import type { DataNode } from './tree/data/dataNodes';
import { DataTreeDataProvider } from './tree/data/dataTreeDataProvider';
import { ModelsTreeDataProvider } from './tree/modelsTreeDataProvider';
import { PreprocessorBadgeProvider } from './tree/nodeRenderer';
import type { TreeNode } from './tree/nodes';

/** What `activate` returns: the services plus the seams the extension-host tests use. */
export interface XModelsExtensionApi {
  readonly services: XModelsServices;
  readonly connection: ConnectionManager;
  readonly tree: ModelsTreeDataProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  readonly dataTree: DataTreeDataProvider;
  readonly dataConnections: DataConnectionStore;
  /** The extension's global state, which holds connection names but never their URLs. */
  readonly globalState: vscode.Memento;
  /** `inputs.use(stand-in)` answers every prompt in place of the user; `inputs.use(undefined)` restores the real ones. */
  readonly inputs: SwitchablePrompter;
  readonly commands: CommandRegistry;
  /** Milliseconds `activate` took (the local service keeps starting in the background). */
  readonly activationMs: number;
}

let connectionToStop: ConnectionManager | undefined;

export function activate(context: vscode.ExtensionContext): XModelsExtensionApi {
  const started = performance.now();
  translateWith((message, ...args) => vscode.l10n.t(message, ...args));
  const secrets = new Set<string>();
  const log = new MaskedLog(() => secrets);
  const settings = new SettingsAccessor(log);
  const contextKeys = new ContextKeys();
  const inputs = new SwitchablePrompter();
  const titles = commandTitles(context);
  const commands = new CommandRegistry(log, (id) => titles.get(id) ?? id);

  const auth: HostedAuthProvider = new HostedAuthProvider({
    secrets: context.secrets,
    prompter: inputs,
    log,
    baseUrl: () => settings.current.hosted.baseUrl,
    saveBaseUrl: (url) => settings.setHostedBaseUrl(url),
    connect: async (baseUrl, apiKey): Promise<ConnectInfo> => {
      secrets.add(apiKey);
      const client = connection.hostedClient({ baseUrl, accessToken: apiKey });
      try {
        return await client.connect();
      } finally {
        await client.close();
      }
    },
  });
  const dataConnections = new DataConnectionStore({ secrets: context.secrets, globalState: context.globalState, log, rememberSecret: (secret) => secrets.add(secret) });
  const connection: ConnectionManager = new ConnectionManager({
    settings,
    contextKeys,
    log,
    auth,
    globalState: context.globalState,
    cliPath: join(context.extensionPath, 'dist', 'cli.js'),
    defaultDataDir: join(context.globalStorageUri.fsPath, 'service'),
    rememberSecret: (secret) => secrets.add(secret),
    prepareLocalService: (client) => dataConnections.restoreTo(client),
  });
  connectionToStop = connection;

  const tree = new ModelsTreeDataProvider(connection, contextKeys, log, () => settings.current.models.pageSize);
  const treeView = vscode.window.createTreeView('xmodels.models', { treeDataProvider: tree, showCollapseAll: true });
  const dataTree = new DataTreeDataProvider(connection, () => dataConnections.unrestored(), contextKeys, log);
  const dataTreeView = vscode.window.createTreeView<DataNode>('xmodels.data', { treeDataProvider: dataTree, showCollapseAll: true });
  let pageSize = settings.current.models.pageSize;
  const pageSizeWatch = settings.onDidChangeSettings((current) => {
    if (current.models.pageSize === pageSize) return;
    pageSize = current.models.pageSize;
    tree.refresh();
  });

  async function revealModel(modelId: string, versionId?: string): Promise<void> {
    tree.refresh();
    const node = versionId ? await tree.findVersion(modelId, versionId) : await tree.findModel(modelId);
    if (!node) return;
    await Promise.resolve(treeView.reveal(node, { select: true, focus: false, expand: false })).catch((error: unknown) => log.warn(`Could not reveal ${modelId}: ${String(error)}`));
  }

  const keyConsent = new TextGenKeyConsent(context.globalState);
  const textGenKey = new TextGenKeyStore({
    secrets: context.secrets,
    prompter: inputs,
    log,
    rememberSecret: (secret) => secrets.add(secret),
    usesRulesOnly: () => settings.current.textgen.provider === 'rules',
    keyChanged: () => keyConsent.forget(),
  });
  const textGenWithKey = async () => {
    const current = settings.current.textgen;
    return textGenConfigFrom(current, current.provider === 'rules' ? undefined : await textGenKey.get());
  };
  const serviceTarget = (): ServiceTarget => (connection.mode === 'hosted' ? { hosted: true, url: settings.current.hosted.baseUrl } : { hosted: false });

  const services: XModelsServices = {
    getClient: () => connection.getClient(),
    log,
    settings,
    extensionUri: context.extensionUri,
    registerCommand: (id, handler) => commands.register(id, handler),
    revealModel,
    refreshModels: () => tree.refresh(),
    refreshModel: (modelId) => tree.refreshModel(modelId),
    whileModelsBusy: (message, work) => tree.whileBusy(message, work),
    textGenConfig: async () => keyConsent.configFor(await textGenWithKey(), serviceTarget()),
    askTextGenKeyConsent: async (prompter) => keyConsent.askIfUndecided(await textGenWithKey(), serviceTarget(), prompter),
    prompter: inputs,
  };
  const train = new TrainCommands(services);
  const refit = new RefitCommand(services);
  const link = new LinkPreprocessorCommand(services);
  const predict = new PredictCommand(services);
  const models = new ModelCommands(services);
  const comparer = new CompareCommand(services);
  const copier = new CopyModelCommand(services, () => connection.copyDestinations());
  const edits = new EditsCommands(services);
  const connectionCommands = new ConnectionCommands(connection, auth, inputs, log);
  const data = new DataCommands({ services, store: dataConnections, train, isHosted: () => connection.mode === 'hosted', refreshData: () => dataTree.refresh() });
  const panels = registerPanels(services, new SaveEditsCommand(services));
  const exporter = new ExportCommand(services, () => panels.activeProfile());
  const reporter = new ReportCommand(services);
  const register = services.registerCommand;

  context.subscriptions.push(
    log,
    settings,
    commands,
    auth,
    connection,
    tree,
    treeView,
    pageSizeWatch,
    new ConnectionStatusBar(connection),
    vscode.window.registerFileDecorationProvider(new PreprocessorBadgeProvider()),
    register('xmodels.models.refresh', () => tree.refresh()),
    register('xmodels.models.loadMore', () => tree.loadMore()),
    register('xmodels.models.train', (uri?: unknown) => train.train(uri)),
    register('xmodels.models.trainVersion', (node?: unknown) => train.trainVersion(node)),
    register('xmodels.walkthrough.trainSample', () => train.trainSample()),
    register('xmodels.models.refit', (node?: unknown) => refit.refit(node)),
    register('xmodels.models.linkPreprocessor', (node?: unknown) => link.link(node)),
    register('xmodels.models.predict', (arg?: unknown) => predict.predict(arg)),
    register('xmodels.models.copyId', (node?: unknown) => models.copyId(node)),
    register('xmodels.models.exportPython', (node?: unknown) => exporter.export('python', node)),
    register('xmodels.models.exportSql', (node?: unknown) => exporter.export('sql', node)),
    register('xmodels.models.exportReport', (node?: unknown) => reporter.export(node)),
    register('xmodels.models.copyTo', (node?: unknown) => copier.copy(node)),
    register('xmodels.models.exportEdits', (node?: unknown) => edits.exportEdits(node)),
    register('xmodels.models.applyEdits', (arg?: unknown) => edits.applyEdits(arg)),
    register('xmodels.models.compare', (node?: unknown) => comparer.compare(node)),
    register('xmodels.models.delete', (node?: unknown) => models.delete(node)),
    register('xmodels.connection.useHosted', () => connectionCommands.useHosted()),
    register('xmodels.connection.useLocal', () => connectionCommands.useLocal()),
    register('xmodels.connection.retry', () => connectionCommands.retry()),
    register('xmodels.connection.selectTeam', () => connectionCommands.selectTeam()),
    register('xmodels.connection.showLog', () => connectionCommands.showLog()),
    dataTree,
    dataTreeView,
    register('xmodels.data.refresh', () => dataTree.refresh()),
    register('xmodels.data.addConnection', () => data.addConnection()),
    register('xmodels.data.removeConnection', (node?: unknown) => data.removeConnection(node)),
    register('xmodels.data.trainTable', (node?: unknown) => data.trainTable(node)),
    register('xmodels.data.autotrainTable', (node?: unknown) => data.autotrainTable(node)),
    register('xmodels.data.summarizeTable', (node?: unknown) => data.summarizeTable(node)),
    register('xmodels.data.trainQuery', (node?: unknown) => data.trainQuery(node)),
    register('xmodels.textgen.setApiKey', () => textGenKey.askAndStore()),
    panels,
    registerAutotrain(services),
  );

  openWalkthroughOnce(context);
  const activationMs = performance.now() - started;
  log.info(`XModels activated in ${activationMs.toFixed(1)} ms`);
  return { services, connection, tree, treeView, dataTree, dataConnections, globalState: context.globalState, inputs, commands, activationMs };
}

export async function deactivate(): Promise<void> {
  await connectionToStop?.stop();
  connectionToStop = undefined;
}

const WALKTHROUGH_SHOWN = 'xmodels.walkthroughShown';

/**
 * Opens the Get Started walkthrough on the first activation (not in extension-host tests, which start fresh each run),
 * as an inactive tab: behind the editors already open, so it does not take the keyboard from them. (In an empty
 * editor area VS Code still makes it the active, focused editor.)
 */
function openWalkthroughOnce(context: vscode.ExtensionContext): void {
  if (context.extensionMode === vscode.ExtensionMode.Test || context.globalState.get<boolean>(WALKTHROUGH_SHOWN)) return;
  void context.globalState.update(WALKTHROUGH_SHOWN, true);
  void vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#getStarted`, { toSide: false, inactive: true });
}

/** Command titles from the manifest (VS Code has already replaced the `%key%` placeholders), without the "…". */
function commandTitles(context: vscode.ExtensionContext): Map<string, string> {
  const declared = (context.extension.packageJSON as { contributes?: { commands?: { command: string; title: string }[] } }).contributes?.commands ?? [];
  return new Map(declared.map(({ command, title }) => [command, title.replace(/…$/, '')]));
}
