// The profile panel in a real VS Code (VS Code's server in headless Chromium, as the UI tests run it), for a 100-feature
// model against a 7-feature one: from the "Open Profile" menu choice to the first chart on screen (drawn in the webview
// and the webview shown), split into VS Code's part (the panel, its frame and service worker, until the webview asks
// for the panel's script) and the extension's (script, messages, data, drawing). Beside it, VS Code's own Markdown
// preview opened by its key binding: what any webview panel costs here. Then editing a step: from an edit's key to
// the next frame with the chart redrawn, while the previews of the metrics come and go. The models are trained
// beforehand on the data directory of the local service the extension starts. Needs code-server (installed on first
// use, as for `npm run test:ui`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { XModelsClient } from '../../src/client';
import { binaryCsv } from '../unit/panels/fixtures';
import { removeDir, startService, tempDataDir } from '../unit/service/harness';
import { ensureBuilt } from '../vscode/lib/build';
import { versionRow } from '../vscode/lib/modelsTree';
import { Workbench } from '../vscode/lib/workbench';

const FEATURES = [7, 100];
const RUNS = 3;
const TIMEOUT_MS = 60_000;

async function trainModels(dataDir: string): Promise<void> {
  const service = await startService({ dataDir });
  const client = new XModelsClient({ baseUrl: service.url, apiKey: service.apiKey, proxy: null });
  try {
    // binaryCsv adds a categorical feature to its numeric ones; the stored dataset lets the panel preview edits.
    for (const features of FEATURES) {
      const dataset = await client.datasets.upload({ csv_content: binaryCsv(features - 1, 400), name: `bench-${features}.csv` });
      await client.models.trainModel({ dataset_id: dataset.dataset_id, target_column: 'target', model_name: `bench-${features}-features` });
    }
  } finally {
    await client.close();
    await service.stop();
  }
}

/** Milliseconds since the page's time origin, on the same clock as Node's. */
const now = () => performance.timeOrigin + performance.now();

/** When a webview opened: its frame asked for its first resource, and it showed what `shows` looks for. */
interface Opening {
  /** Command to the webview's first request (VS Code: the panel, its frame, its service worker). */
  frame: number;
  /** Command to the content on screen. */
  total: number;
}

/** VS Code's frame of the webview that is not among `before` (the outer one, which holds the page's frame). */
async function newWebviewHost(page: Page, before: Set<Frame>): Promise<Frame> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const frame = page.frames().find((f) => !before.has(f) && f.url().includes('/webview/browser/pre/index.html'));
    if (frame) return frame;
    if (Date.now() > deadline) throw new Error('no webview frame appeared');
    await page.waitForTimeout(5);
  }
}

/**
 * Times a webview from `start` (which calls `choose` right when the command is chosen) until the page in it is shown
 * (VS Code makes its frame visible once loaded) and has `selector`; polled at every animation frame.
 */
async function timeOpening(page: Page, selector: string, start: (choose: () => void) => Promise<void>): Promise<Opening> {
  const before = new Set(page.frames());
  let chosen = NaN;
  await start(() => (chosen = now()));
  const host = await newWebviewHost(page, before);
  const shown = await host.waitForFunction(
    (wanted) => {
      const frame = document.getElementById('active-frame') as HTMLIFrameElement | null;
      const content = frame?.style.visibility === 'visible' ? frame.contentWindow : null;
      if (!content?.document.querySelector(wanted)) return null;
      const [first] = content.performance.getEntriesByType('resource');
      return { at: performance.timeOrigin + performance.now(), firstRequest: content.performance.timeOrigin + (first?.startTime ?? NaN) };
    },
    selector,
    { polling: 'raf', timeout: TIMEOUT_MS },
  );
  const { at, firstRequest } = (await shown.jsonValue()) as { at: number; firstRequest: number };
  return { frame: firstRequest - chosen, total: at - chosen };
}

/** A chart of the profile with its marks drawn. */
const PROFILE_CHART = '.chart svg .mark';

async function openProfile(workbench: Workbench, features: number): Promise<Opening> {
  await workbench.runCommand('View: Close All Editors');
  const row = await versionRow(workbench, `bench-${features}-features`);
  const opening = await timeOpening(workbench.page, PROFILE_CHART, (choose) => workbench.contextMenu(row, 'Open Profile', choose));
  // Pair terms are listed among the features; the header counts the features alone.
  const counted = await workbench.webview().locator('.fact', { hasText: 'Features' }).locator('.fact-value').textContent();
  if (counted !== String(features)) throw new Error(`the profile counts ${counted} features, not ${features}`);
  return opening;
}

async function openMarkdownPreview(workbench: Workbench): Promise<Opening> {
  await workbench.runCommand('View: Close All Editors');
  await (await workbench.explorerRow('note.md')).dblclick();
  await workbench.page.locator('.tabs-container .tab', { hasText: 'note.md' }).first().waitFor({ timeout: TIMEOUT_MS });
  await workbench.page.locator('.monaco-editor.focused').first().waitFor({ timeout: TIMEOUT_MS });
  return timeOpening(workbench.page, 'h1', async (choose) => {
    choose();
    await workbench.page.keyboard.press('Control+Shift+V');
  });
}

/** The page in the newest webview frame. */
function webviewPage(page: Page): Frame {
  const pages = page.frames().filter((f) => f.parentFrame()?.url().includes('/webview/browser/pre/index.html'));
  const last = pages.at(-1);
  if (!last) throw new Error('no webview is open');
  return last;
}

const EDITS = 40;

interface Redraw {
  /** Key to the next frame, with the chart redrawn. */
  frame: number;
  /** The editor's own work: the key's handler, up to the chart's new SVG. */
  handled: number;
}

/**
 * Each of `EDITS` edit keys pressed on the open profile's step editor (a nudge up, merge, a nudge down, never
 * decreasing, undo, in turn, on its first six bins), timed to the next frame after it: the editor redraws the chart
 * on each (keys dispatched in the page, so the figures hold no time of Playwright's).
 */
async function redrawAfterEdits(workbench: Workbench): Promise<Redraw[]> {
  await workbench.webview().locator('.edit-surface').waitFor({ timeout: TIMEOUT_MS });
  // A string, not a function: the TypeScript loader would wrap the inner functions in a helper the page lacks.
  const script = `(async () => {
    const surface = document.querySelector('.edit-surface');
    const press = (key, mods = {}) => surface.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...mods }));
    const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    surface.focus();
    press('Home');
    for (let i = 0; i < 5; i++) press('ArrowRight', { shiftKey: true });
    await nextFrame();
    const keys = [['ArrowUp', {}], ['m', {}], ['ArrowDown', {}], ['u', {}], ['z', { ctrlKey: true }]];
    const times = [];
    for (let i = 0; i < ${EDITS}; i++) {
      const started = performance.now();
      press(...keys[i % keys.length]);
      const handled = performance.now() - started;
      await nextFrame();
      times.push({ frame: performance.now() - started, handled });
    }
    const listed = document.querySelector('.edits summary')?.textContent ?? '';
    if (!/^Edits \\(\\d+\\)/.test(listed)) throw new Error('the keys made no edit (the list says "' + listed + '")');
    return times;
  })()`;
  return (await webviewPage(workbench.page).evaluate(script)) as Redraw[];
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

/** The run with the shortest total, of `runs` after one left out (code not yet loaded). */
async function best(runs: number, open: () => Promise<Opening>): Promise<Opening> {
  await open();
  let fastest: Opening = { frame: NaN, total: Infinity };
  for (let run = 0; run < runs; run++) {
    const opening = await open();
    if (opening.total < fastest.total) fastest = opening;
  }
  return fastest;
}

const split = (o: Opening) => `${o.total.toFixed(0)} ms (VS Code's webview frame ${o.frame.toFixed(0)} ms, then ${(o.total - o.frame).toFixed(0)} ms)`;

async function main(): Promise<void> {
  ensureBuilt({ whenStale: true });
  const dataDir = tempDataDir();
  await trainModels(dataDir);
  const workbench = new Workbench({ datasets: [], serverSettings: { 'xmodels.localService.dataDirectory': dataDir } });
  writeFileSync(join(workbench.workspaceDir, 'note.md'), '# A note\n\nA paragraph of text.\n');
  try {
    await workbench.start();
    await workbench.waitForExtension();
    const markdown = await best(RUNS, () => openMarkdownPreview(workbench));
    const profiles = new Map<number, Opening>();
    for (const features of FEATURES) profiles.set(features, await best(RUNS, () => openProfile(workbench, features)));
    const [small, wide] = FEATURES.map((features) => profiles.get(features) as Opening);
    console.log(
      `profile first chart in VS Code, "Open Profile" menu choice to chart on screen (best of ${RUNS}): ` +
        `${FEATURES[1]} features ${split(wide)}; ${FEATURES[0]} features ${split(small)}; ratio ${(wide.total / small.total).toFixed(2)}`,
    );
    console.log(`VS Code's own Markdown preview, key binding to text on screen (best of ${RUNS}): ${split(markdown)}`);
    const redraws = new Map<number, Redraw[]>();
    for (const features of FEATURES) {
      await openProfile(workbench, features);
      redraws.set(features, await redrawAfterEdits(workbench));
    }
    const timing = (features: number) => {
      const frames = (redraws.get(features) as Redraw[]).map((r) => r.frame);
      const handled = (redraws.get(features) as Redraw[]).map((r) => r.handled);
      const ms = (values: number[], share: number) => percentile(values, share).toFixed(1);
      return `${features} features median ${ms(frames, 0.5)} ms, p90 ${ms(frames, 0.9)} ms, max ${ms(frames, 1)} ms (the editor's own work: median ${ms(handled, 0.5)} ms, max ${ms(handled, 1)} ms)`;
    };
    console.log(`profile step edit, key to the next frame with the chart redrawn (${EDITS} edits, target < 50 ms): ${timing(FEATURES[1])}; ${timing(FEATURES[0])}`);
  } finally {
    await workbench.close();
    removeDir(dataDir);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
