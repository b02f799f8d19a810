// Fixture for UI tests: VS Code's server with the extension loaded and a sample workspace, opened in headless
// Chromium, plus helpers for the parts of the workbench the tests drive. Call `useWorkbench()` inside a mocha
// `describe`: it starts everything before the first test, saves a screenshot of every failed test to
// test-results/failures/, and closes everything after the last test.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { ensureCodeServer } from './codeServer';
import { failureScreenshotsDir, readmePicturesDir, screenshotsDir } from './paths';
import { startVSCodeServer, type VSCodeServer } from './server';
import { createSampleWorkspace, sampleDatasets, updateWorkspaceSettings } from './workspace';

export interface WorkbenchOptions {
  /** CSVs from media/datasets copied into the workspace (default: penguins, cars, seattle-weather). */
  datasets?: string[];
  /** Workspace settings applied before the workbench opens (e.g. `{'workbench.colorTheme': ...}`). */
  settings?: Record<string, unknown>;
  /** User and machine settings of VS Code's server (machine-scoped ones, e.g. the local service's data directory). */
  serverSettings?: Record<string, unknown>;
  viewport?: { width: number; height: number };
}

const themes = { light: 'Default Light Modern', dark: 'Default Dark Modern' } as const;
const themeClass = { light: 'vs', dark: 'vs-dark' } as const;
const defaultTimeoutMs = 30_000;

function fileName(title: string): string {
  return title.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 120);
}

export class Workbench {
  private server?: VSCodeServer;
  private browser?: Browser;
  private currentPage?: Page;
  /** The sample workspace folder (a temp dir). */
  readonly workspaceDir: string;

  constructor(private readonly options: WorkbenchOptions = {}) {
    this.workspaceDir = createSampleWorkspace(undefined, options.datasets ?? sampleDatasets);
  }

  /** The Playwright page showing the workbench. */
  get page(): Page {
    if (!this.currentPage) throw new Error('The workbench is not started: call useWorkbench() inside describe()');
    return this.currentPage;
  }

  async start(): Promise<void> {
    ensureCodeServer();
    if (this.options.settings) updateWorkspaceSettings(this.workspaceDir, this.options.settings);
    // XMODELS_TEST_VSIX: test the packaged extension installed from that .vsix instead of the development build.
    const vsix = process.env.XMODELS_TEST_VSIX;
    this.server = await startVSCodeServer({ installVsix: vsix, settings: this.options.serverSettings });
    this.browser = await launchChromium();
    this.currentPage = await this.browser.newPage({ viewport: this.options.viewport ?? { width: 1400, height: 900 } });
    await this.currentPage.goto(this.server.workbenchUrl({ folder: this.workspaceDir, extensionDevelopmentPath: vsix ? null : undefined }));
    await this.currentPage.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  }

  async close(): Promise<void> {
    await this.browser?.close();
    await this.server?.stop();
    rmSync(this.workspaceDir, { recursive: true, force: true });
  }

  /** The XModels item of the activity bar. */
  activityBarItem(): Locator {
    return this.page.locator('.activitybar a.action-label[aria-label^="XModels"]');
  }

  /** Waits until the extension's contributions are in the workbench (its activity-bar item shows). */
  async waitForExtension(timeoutMs = 60_000): Promise<void> {
    await this.activityBarItem().waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** The side bar while it shows the XModels container (title "XModels", with its Models and Data views). */
  xmodelsSideBar(): Locator {
    return this.page.locator('#workbench\\.parts\\.sidebar', {
      has: this.page.locator('.composite.title h2', { hasText: /^XModels/ }),
    });
  }

  /** Opens the XModels view container from the activity bar; returns the side bar showing it. */
  async openXModelsView(): Promise<Locator> {
    await this.waitForExtension();
    const sideBar = this.xmodelsSideBar();
    if (!(await sideBar.isVisible())) await this.activityBarItem().click();
    await sideBar.waitFor({ state: 'visible', timeout: defaultTimeoutMs });
    return sideBar;
  }

  /** The rows of the Models tree. */
  treeRows(): Locator {
    return this.page.locator('#workbench\\.view\\.extension\\.xmodels .monaco-list-row');
  }

  /** The quick input (command palette, QuickPick, InputBox). */
  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** Runs a command from the palette by its full title, e.g. "XModels: Refresh". */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const input = this.quickInput().locator('input');
    await input.waitFor({ state: 'visible', timeout: defaultTimeoutMs });
    await input.fill(`>${title}`);
    await this.pickQuickItem(title);
  }

  /** Chooses the QuickPick item whose label matches. */
  async pickQuickItem(label: string | RegExp): Promise<void> {
    const row = this.quickInput().locator('.monaco-list-row', {
      has: this.page.locator('.label-name', { hasText: label }),
    });
    await row.first().click({ timeout: defaultTimeoutMs });
  }

  /** Types into the open QuickPick/InputBox and, unless `submit` is false, presses Enter. */
  async answerQuickInput(text: string, { submit = true } = {}): Promise<void> {
    const input = this.quickInput().locator('input');
    await input.waitFor({ state: 'visible', timeout: defaultTimeoutMs });
    await input.fill(text);
    if (submit) await input.press('Enter');
  }

  /** A row of the Explorer by its file name (opens the Explorer when needed). */
  async explorerRow(name: string): Promise<Locator> {
    const row = this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: name });
    if (!(await row.first().isVisible())) await this.page.keyboard.press('Control+Shift+E');
    await row.first().waitFor({ state: 'visible', timeout: defaultTimeoutMs });
    return row.first();
  }

  /** Right-clicks an Explorer row and chooses a context-menu item. Waits for the extension first. */
  async explorerContextMenu(fileName: string, item: string | RegExp): Promise<void> {
    await this.waitForExtension();
    await this.contextMenu(await this.explorerRow(fileName), item);
  }

  /**
   * Right-clicks a row (Explorer, Models tree) and chooses a context-menu item. The web workbench sometimes drops a
   * click on a menu item while the menu fades in, and an item stays disabled until its when-clause holds, so the
   * item is chosen with the keyboard and the menu is opened again until it closes on the choice. `onChoose` runs
   * right before each choice (benchmarks start their clock there).
   */
  async contextMenu(row: Locator, item: string | RegExp, onChoose?: () => void): Promise<void> {
    const deadline = Date.now() + 2 * defaultTimeoutMs;
    for (;;) {
      await row.click({ button: 'right' });
      const entry = this.page.getByRole('menuitem', { name: item }).filter({ visible: true }).first();
      await entry.waitFor({ state: 'visible', timeout: defaultTimeoutMs });
      if ((await entry.getAttribute('aria-disabled')) !== 'true') {
        await entry.hover();
        onChoose?.();
        await this.page.keyboard.press('Enter');
        if (await entry.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false)) return;
      }
      await this.page.keyboard.press('Escape');
      if (Date.now() > deadline) throw new Error(`The menu item ${String(item)} stayed disabled or ignored the choice`);
      await this.page.waitForTimeout(500);
    }
  }

  /** The content of a webview (the last opened one by default). */
  webview(index = -1): FrameLocator {
    const outer = this.page.locator('iframe.webview');
    const chosen = index < 0 ? outer.last() : outer.nth(index);
    return chosen.contentFrame().frameLocator('iframe');
  }

  /** A notification toast containing `text`. */
  notification(text: string | RegExp): Locator {
    return this.page.locator('.notification-toast', { hasText: text });
  }

  /** Merges workspace settings; the open workbench applies them at once. */
  setSettings(settings: Record<string, unknown>): void {
    updateWorkspaceSettings(this.workspaceDir, settings);
  }

  /** Switches the color theme and waits until the workbench shows it. */
  async setTheme(kind: keyof typeof themes): Promise<void> {
    this.setSettings({ 'workbench.colorTheme': themes[kind] });
    await this.page.locator(`.monaco-workbench.${themeClass[kind]}`).waitFor({ timeout: defaultTimeoutMs });
  }

  /** Saves a screenshot of the whole window to test-results/screenshots/<name>.png; returns its path. */
  async screenshot(name: string): Promise<string> {
    mkdirSync(screenshotsDir, { recursive: true });
    const path = join(screenshotsDir, `${fileName(name)}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /** Saves one of the README's pictures, media/screenshots/<name>.png, of the window or of another `page`; returns its path. */
  async readmePicture(name: string, page: Page = this.page): Promise<string> {
    mkdirSync(readmePicturesDir, { recursive: true });
    const path = join(readmePicturesDir, `${name}.png`);
    await page.screenshot({ path });
    return path;
  }

  async saveFailureScreenshot(testTitle: string): Promise<string | undefined> {
    if (!this.currentPage) return undefined;
    mkdirSync(failureScreenshotsDir, { recursive: true });
    const path = join(failureScreenshotsDir, `${fileName(testTitle)}.png`);
    await this.currentPage.screenshot({ path });
    return path;
  }
}

/** Registers mocha hooks that start a workbench for the enclosing `describe` and returns it. */
export function useWorkbench(options: WorkbenchOptions = {}): Workbench {
  const workbench = new Workbench(options);
  before(async function () {
    this.timeout(240_000);
    await workbench.start();
  });
  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state !== 'failed') return;
    const path = await workbench.saveFailureScreenshot(test.fullTitle()).catch(() => undefined);
    if (path) console.log(`    screenshot of the failure: ${path}`);
  });
  after(async function () {
    this.timeout(30_000);
    await workbench.close();
  });
  return workbench;
}
