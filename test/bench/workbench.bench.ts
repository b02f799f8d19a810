// The profile panel in a real VS Code (VS Code's server in headless Chromium, as the UI tests run it): from choosing
// "Open Profile" on a version in the Models view to the first chart drawn in the webview, for a 100-feature model
// against a 7-feature one. Unlike extension.bench.ts, this includes the menu, VS Code's creation of the webview frame
// and the extension host. The models are trained beforehand on the data directory of the local service the extension
// starts. Needs code-server (installed on first use, as for `npm run test:ui`).
import { XModelsClient } from '../../src/client';
import { binaryCsv } from '../unit/panels/fixtures';
import { removeDir, startService, tempDataDir } from '../unit/service/harness';
import { ensureBuilt } from '../vscode/lib/build';
import { versionRow } from '../vscode/lib/modelsTree';
import { Workbench } from '../vscode/lib/workbench';

const FEATURES = [7, 100];
const RUNS = 3;

async function trainModels(dataDir: string): Promise<void> {
  const service = await startService({ dataDir });
  const client = new XModelsClient({ baseUrl: service.url, apiKey: service.apiKey, proxy: null });
  try {
    // binaryCsv adds a categorical feature to its numeric ones.
    for (const features of FEATURES) {
      await client.models.trainModel({ csv_content: binaryCsv(features - 1, 400), target_column: 'target', model_name: `bench-${features}-features` });
    }
  } finally {
    await client.close();
    await service.stop();
  }
}

/** Milliseconds from the menu choice to the first chart drawn in the profile of the model's newest version. */
async function profileFirstChart(workbench: Workbench, features: number): Promise<number> {
  await workbench.runCommand('View: Close All Editors');
  const row = await versionRow(workbench, `bench-${features}-features`);
  const started = performance.now();
  await workbench.contextMenu(row, 'Open Profile');
  const view = workbench.webview();
  await view.locator('canvas').first().waitFor({ timeout: 60_000 });
  const ms = performance.now() - started;
  const listed = await view.locator('.feature-list button').count();
  if (listed !== features) throw new Error(`the profile lists ${listed} features, not ${features}`);
  return ms;
}

async function main(): Promise<void> {
  ensureBuilt({ whenStale: true });
  const dataDir = tempDataDir();
  await trainModels(dataDir);
  const workbench = new Workbench({ datasets: [], serverSettings: { 'xmodels.localService.dataDirectory': dataDir } });
  try {
    await workbench.start();
    const best = new Map<number, number>();
    // The first opening of each (extension and webview code not yet loaded) is left out; the best run of the rest counts.
    for (const features of FEATURES) await profileFirstChart(workbench, features);
    for (let run = 0; run < RUNS; run++) {
      for (const features of FEATURES) best.set(features, Math.min(best.get(features) ?? Infinity, await profileFirstChart(workbench, features)));
    }
    const [small, wide] = FEATURES.map((features) => best.get(features) as number);
    console.log(
      `profile first chart in VS Code, "Open Profile" menu choice to chart drawn (best of ${RUNS}): ${FEATURES[1]} features ${wide.toFixed(0)} ms; ${FEATURES[0]} features ${small.toFixed(0)} ms; ratio ${(wide / small).toFixed(2)} (with the menu, VS Code's webview frame and the extension host)`,
    );
  } finally {
    await workbench.close();
    removeDir(dataDir);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
