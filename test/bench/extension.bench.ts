// The extension as a user meets it, in plain Node with a stand-in `vscode` module: load + activate of the minified
// bundle (against a one-command extension bundle), the first tree level with 1,000 models (against 100), and the
// profile panel with 7 and 100 features against the real local service: its data requests and shaping (against a
// health request), and from the command to the first chart drawn by the minified webview in headless Chromium
// (against an empty webview). VS Code's own creation of the webview frame is not in these figures (workbench.bench.ts
// measures the profile in a real VS Code).
import { vscodeStandIn } from './vscodeStub';
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { XModelsClient } from '../../src/client';
import { ContextKeys } from '../../src/common/contextKeys';
import { createNonce, renderPanelHtml } from '../../src/panels/html';
import { PanelHost } from '../../src/panels/panelHost';
import { profilePanel } from '../../src/panels/profilePanel';
import { featureSeries, listFeatures, pickPartition } from '../../src/views/profileSeries';
import { ModelsTreeDataProvider } from '../../src/tree/modelsTreeDataProvider';
import { removeDir, startService } from '../unit/service/harness';
import { launchChromium } from '../vscode/lib/browser';
import { openBrowserPanel, ORIGIN } from './browserWebview';

const ROOT = join(__dirname, '../..');
/** The benches open and load the profile; they never save edits. */
const notSaving = { save: () => Promise.reject(new Error('the bench saves no edits')) };

async function bundle(entry: string, outfile: string): Promise<void> {
  const { extensionBundle } = (await import(pathToFileURL(join(ROOT, 'scripts/nodeBundle.mjs')).href)) as { extensionBundle: esbuild.BuildOptions };
  await esbuild.build({ ...extensionBundle, entryPoints: [entry], outfile, bundle: true, minify: true, legalComments: 'none', logLevel: 'error' });
}

function fakeContext(dir: string) {
  const packageJSON = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as unknown;
  const memento = { get: () => true, update: async () => undefined, keys: () => [] };
  return {
    subscriptions: [] as { dispose(): unknown }[],
    extensionPath: ROOT,
    extensionUri: { fsPath: ROOT },
    globalStorageUri: { fsPath: dir },
    globalState: memento,
    workspaceState: memento,
    secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) },
    extensionMode: 1,
    extension: { id: 'xmodels.xmodels', packageJSON },
  };
}

type Activate = (context: unknown) => unknown;

/** Milliseconds to load the bundle and to run its `activate`. */
async function timeActivation(file: string, dir: string): Promise<{ load: number; activate: number }> {
  const started = performance.now();
  const loadedModule = (await import(pathToFileURL(file).href)) as { activate?: Activate; default?: { activate: Activate } };
  const extension = { activate: loadedModule.activate ?? loadedModule.default!.activate };
  const loaded = performance.now();
  extension.activate(fakeContext(dir));
  return { load: loaded - started, activate: performance.now() - loaded };
}

async function activation(dir: string): Promise<void> {
  const minimal = join(dir, 'minimal.ts');
  writeFileSync(minimal, "import * as vscode from 'vscode';\nexport function activate(context: vscode.ExtensionContext) {\n  context.subscriptions.push(vscode.commands.registerCommand('x.hello', () => 1));\n}\n");
  await bundle(minimal, join(dir, 'minimal.js'));
  await bundle(join(ROOT, 'src/extension.ts'), join(dir, 'extension.js'));
  const base = await timeActivation(join(dir, 'minimal.js'), dir);
  const ours = await timeActivation(join(dir, 'extension.js'), dir);
  const [baseline, ms] = [base.load + base.activate, ours.load + ours.activate];
  const kb = statSync(join(dir, 'extension.js')).size / 1024;
  console.log(`extension bundle (minified): ${kb.toFixed(0)} KB (target < 420 KB)`);
  console.log(
    `load + activate: ${ms.toFixed(1)} ms (load ${ours.load.toFixed(1)}, activate ${ours.activate.toFixed(1)}); one-command extension ${baseline.toFixed(1)} ms; ratio ${(ms / baseline).toFixed(1)}`,
  );
}

async function treeFirstPaint(): Promise<void> {
  const models = Array.from({ length: 1000 }, (_, i) => ({
    model_id: `bench-${i}`, model_name: `model ${i}`, model_description: '', model_type: i % 2 ? 'regression' : 'binary_classification',
    target_name: 'y', algorithm: i % 2 ? 'XRegressor' : 'XClassifier', partition_on: null, team_id: 'bench',
    created: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), created_by: 'bench', number_of_versions: 1, latest_version_id: `v-${i}`, archived: false,
  }));
  const paint = async (count: number): Promise<number> => {
    const connection = {
      state: 'connected' as const,
      features: { deleteModel: true, predict: true, preprocessors: true, sources: true, copyModel: true, edits: true },
      onDidChangeConnection: () => ({ dispose() {} }),
      getClient: async () => ({ models: { listTeamModels: async () => models.slice(0, count) } }) as never,
      start: () => undefined,
      reportUnreachable: () => undefined,
    };
    const provider = new ModelsTreeDataProvider(connection, new ContextKeys(), { warn() {}, info() {} } as never, () => count);
    const started = performance.now();
    const items = (await provider.getChildren()).map((node) => provider.getTreeItem(node));
    const ms = performance.now() - started;
    if (items.length !== count) throw new Error(`expected ${count} tree items, got ${items.length}`);
    return ms;
  };
  await paint(100);
  const baseline = await paint(100);
  const ms = await paint(1000);
  console.log(`first tree level: 1,000 models ${ms.toFixed(1)} ms; 100 models ${baseline.toFixed(1)} ms; ratio ${(ms / baseline).toFixed(1)}`);
}

function wideCsv(features: number, rows: number): string {
  const header = [...Array.from({ length: features }, (_, j) => `f${j}`), 'target'].join(',');
  const lines = Array.from({ length: rows }, (_, i) => {
    const xs = Array.from({ length: features }, (_, j) => ((i * (j + 7)) % 97) / 9.7);
    return [...xs.map((x) => x.toFixed(3)), xs[0] + xs[features - 1] > 10 ? 'yes' : 'no'].join(',');
  });
  return [header, ...lines].join('\n');
}

interface WideModel {
  features: number;
  args: { versionId: string; modelId: string };
}

interface VSCodeStandIn {
  window: { createWebviewPanel: () => unknown };
  Uri: { joinPath: (base: { fsPath: string }, ...segments: string[]) => { fsPath: string } };
}

/** The webview bundle of the profile panel, minified as packaged, with the assets its HTML names; returns its folder. */
async function buildProfileWebview(dir: string): Promise<string> {
  const { webviewBundle } = (await import(pathToFileURL(join(ROOT, 'scripts/nodeBundle.mjs')).href)) as { webviewBundle: esbuild.BuildOptions };
  const out = join(dir, 'webview');
  await esbuild.build({ ...webviewBundle, entryPoints: [join(ROOT, 'webview/profile.ts')], outdir: out, bundle: true, minify: true, legalComments: 'none', logLevel: 'error' });
  for (const file of ['codicon.css', 'codicon.ttf']) copyFileSync(join(ROOT, 'node_modules/@vscode/codicons/dist', file), join(out, file));
  writeFileSync(join(out, 'empty.js'), '');
  return out;
}

/**
 * From the command (PanelHost.show) to the first chart drawn in the webview (Chromium), against an empty webview
 * (the same HTML shell and style sheets, an empty script) to its load event. Also when each message arrived.
 */
async function profileFirstChart(client: XModelsClient, models: WideModel[], dir: string): Promise<void> {
  const webviewDir = await buildProfileWebview(dir);
  const vscode = vscodeStandIn as unknown as VSCodeStandIn;
  vscode.Uri.joinPath = (base, ...segments) => ({ fsPath: join(base.fsPath, ...segments) });
  const services = { getClient: async () => client, log: { warn() {} } } as never;
  const log = { warn() {}, error() {}, info() {} } as never;
  const browser = await launchChromium();
  try {
    const emptyWebview = async (): Promise<number> => {
      const opened = await openBrowserPanel(browser, ROOT, webviewDir);
      const started = performance.now();
      const loaded = opened.page.waitForEvent('load');
      (opened.panel as { webview: { html: string } }).webview.html = renderPanelHtml({
        title: 'empty', cspSource: ORIGIN, nonce: createNonce(), scriptUri: `${ORIGIN}/dist/webview/empty.js`,
        styleUris: [`${ORIGIN}/media/webview/panels.css`], codiconUri: `${ORIGIN}/dist/webview/codicon.css`,
      });
      await loaded;
      const ms = performance.now() - started;
      await opened.page.close();
      return ms;
    };
    const firstChart = async (args: WideModel['args']) => {
      const opened = await openBrowserPanel(browser, ROOT, webviewDir);
      vscode.window.createWebviewPanel = () => opened.panel;
      const host = new PanelHost(profilePanel(services, notSaving), { fsPath: ROOT } as never, log);
      const started = performance.now();
      host.show(args);
      await opened.firstChart();
      const ms = performance.now() - started;
      const at = (kind: string) => (opened.messages.find((m) => m.kind === kind)?.at ?? NaN) - started;
      await opened.page.close();
      host.dispose();
      return { ms, ready: at('ready'), load: at('load') };
    };
    await emptyWebview();
    let baseline = Infinity;
    for (let run = 0; run < 3; run++) baseline = Math.min(baseline, await emptyWebview());
    const timings: string[] = [];
    for (const { features, args } of models) {
      await firstChart(args);
      let best = { ms: Infinity, ready: NaN, load: NaN };
      for (let run = 0; run < 3; run++) {
        const timing = await firstChart(args);
        if (timing.ms < best.ms) best = timing;
      }
      // A page that drew from the data the host posted unasked sends no load request.
      const load = Number.isNaN(best.load) ? 'data preloaded' : `load request at ${best.load.toFixed(0)}`;
      timings.push(`${features} features ${best.ms.toFixed(0)} ms (ratio ${(best.ms / baseline).toFixed(1)}; ready at ${best.ready.toFixed(0)}, ${load})`);
    }
    console.log(`profile first chart, command to chart drawn in Chromium (target < 500 ms): ${timings.join('; ')}; empty webview ${baseline.toFixed(0)} ms`);
  } finally {
    await browser.close();
  }
}

/** The profile panel's data requests to the real local service plus the shaping of the first chart. */
async function profileData(client: XModelsClient, models: WideModel[]): Promise<void> {
  const services = { getClient: async () => client, log: { warn() {} } } as never;
  const firstChartData = async (args: WideModel['args']): Promise<{ ms: number; bytes: number }> => {
    const started = performance.now();
    const data = await profilePanel(services, notSaving).handlers.load(args, { args, signal: new AbortController().signal });
    const partition = pickPartition(data.profile.partitions);
    if (!partition) throw new Error('the profile has no partition');
    const [top] = listFeatures(partition, '', 'importance');
    if (!featureSeries(partition, top.feature)) throw new Error('no series for the top feature');
    return { ms: performance.now() - started, bytes: JSON.stringify(data).length };
  };
  let healthMs = Infinity;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await client.health();
    healthMs = Math.min(healthMs, performance.now() - t);
  }
  const timings: string[] = [];
  for (const { features, args } of models) {
    let best = { ms: Infinity, bytes: 0 };
    for (let run = 0; run < 4; run++) {
      const timing = await firstChartData(args);
      if (timing.ms < best.ms) best = timing;
    }
    timings.push(`${features} features ${best.ms.toFixed(1)} ms, ${(best.bytes / 1024).toFixed(0)} KB (ratio to a health request ${(best.ms / healthMs).toFixed(1)})`);
  }
  console.log(`profile data (requests + shaping of the first chart): ${timings.join('; ')}`);
}

async function profileBenches(dir: string): Promise<void> {
  const service = await startService();
  const client = new XModelsClient({ baseUrl: service.url, apiKey: service.apiKey, proxy: null });
  try {
    const models: WideModel[] = [];
    for (const features of [7, 100]) {
      const trained = await client.models.trainModel({ csv_content: wideCsv(features, 2000), target_column: 'target', model_name: `wide-${features}` });
      models.push({ features, args: { versionId: trained.version_id, modelId: trained.model_id } });
    }
    await profileData(client, models);
    await profileFirstChart(client, models, dir);
  } finally {
    await client.close();
    await service.stop();
    removeDir(service.dataDir);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-extension-bench-'));
  mkdirSync(dir, { recursive: true });
  try {
    await activation(dir);
    await treeFirstPaint();
    await profileBenches(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
