// The README's pictures, taken as a user sees each main view: a regressor's profile with a pair term's heat map and
// a hand edit in progress, the comparison of the edited version with its parent, a classifier's evaluation, the
// exported HTML report in a browser, and the Data view beside a table's summary. The steps run in order (the edit
// is made in the profile the first one opens, and compared and reported on after); each checks what it shows and
// writes its picture to media/screenshots/ (`npm run screenshots` runs this file alone). The models are trained
// beforehand on the data directory of the local service the extension starts, from stored datasets, so the edit
// preview has metrics.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Locator } from 'playwright-core';
import { XModelsClient } from '../../../src/client';
import { DATASETS, removeDir, startService, tempDataDir } from '../../unit/service/harness';
import { enterChild, treeRow, versionRow } from '../lib/modelsTree';
import { useWorkbench, type Workbench } from '../lib/workbench';

const timeout = 60_000;

/** A DuckDB file with one table, main.penguins, read from the sample CSV. */
async function penguinsDatabase(file: string): Promise<void> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE penguins AS SELECT * FROM read_csv('${join(DATASETS, 'penguins.csv').replace(/'/g, "''")}', header = true)`);
  connection.closeSync();
  instance.closeSync();
}

/** Scrolls a panel's element to the top of the webview, clears the notifications and rests the pointer where it shows no hover. */
async function showFromTop(workbench: Workbench, element: Locator): Promise<void> {
  await element.evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await workbench.runCommand('Notifications: Clear All Notifications');
  await workbench.page.mouse.move(640, 790);
  await workbench.page.waitForTimeout(1000);
}

describe('the README’s pictures (UI)', function () {
  this.timeout(240_000);
  const dataDir = tempDataDir();
  const databaseDir = mkdtempSync(join(tmpdir(), 'xmodels-pictures-'));
  before(async function () {
    this.timeout(180_000);
    await penguinsDatabase(join(databaseDir, 'shop.db'));
    const service = await startService({ dataDir });
    const client = new XModelsClient({ baseUrl: service.url, apiKey: service.apiKey, proxy: null });
    try {
      await client.models.trainModel({
        file_path: join(DATASETS, 'cars.csv'), target_column: 'Miles_per_Gallon', model_type: 'regressor', model_name: 'cars', drop_columns: ['Name'],
        // A pair named in the request is fitted unscreened: the screen keeps none on this small table.
        interactions: [['Displacement', 'Acceleration']],
      });
      await client.models.trainModel({
        file_path: join(DATASETS, 'penguins.csv'), target_column: 'Sex', model_type: 'classifier', model_name: 'penguins-sex', rare_classes: 'drop',
      });
    } finally {
      await client.close();
      await service.stop();
    }
  });
  const workbench = useWorkbench({
    datasets: ['cars.csv', 'penguins.csv'],
    serverSettings: { 'xmodels.localService.dataDirectory': dataDir },
    viewport: { width: 1280, height: 800 },
  });
  after(() => {
    removeDir(dataDir);
    rmSync(databaseDir, { recursive: true, force: true });
  });

  it('shows a pair term of the profile as a heat map', async () => {
    await workbench.runCommand('View: Close All Editors');
    await workbench.contextMenu(await versionRow(workbench, 'cars'), 'Open Profile');
    const view = workbench.webview();
    await view.locator('.chart svg .mark').first().waitFor({ timeout });
    const pair = view.locator('.feature-list button', { hasText: ' × ' }).first();
    const name = (await pair.getAttribute('data-feature')) ?? '';
    assert.match(name, / × /, 'the cars model has pair terms');
    await pair.click();
    const heading = view.locator('h2', { hasText: name });
    await heading.waitFor({ timeout });
    const map = view.locator('table.pair-heatmap');
    assert.ok((await map.locator('td[data-row]').count()) >= 4, 'the heat map has cells');
    assert.match((await map.getAttribute('aria-label')) ?? '', new RegExp(name.split(' × ')[0]));
    await showFromTop(workbench, view.locator('.split'));
    await workbench.readmePicture('profile-pairs');
  });

  it('edits a range of Horsepower’s steps by hand, previews the metrics, and saves the edit as version 2', async () => {
    const view = workbench.webview();
    await view.locator('.feature-list button', { hasText: /^Horsepower/ }).click();
    const heading = view.locator('h2', { hasText: /^Horsepower$/ });
    await heading.waitFor({ timeout });
    const surface = view.locator('.edit-surface');
    await surface.focus();
    const keys = workbench.page.keyboard;
    await keys.press('Home');
    for (let i = 0; i < 3; i++) await keys.press('Shift+ArrowRight');
    await keys.press('ArrowUp');
    await keys.press('ArrowUp');
    assert.match((await view.locator('.edits li').first().textContent()) ?? '', /Horsepower/);
    await view.locator('table.metric-deltas tr', { hasText: /^RMSE/ }).waitFor({ timeout });
    await view.locator('.edit-outcome [aria-busy]').waitFor({ state: 'detached', timeout });
    assert.equal(await surface.locator('path.fitted').count(), 1, 'the fitted steps stay behind the edited ones');
    await showFromTop(workbench, heading);
    await workbench.readmePicture('profile-edit');

    await view.locator('vscode-button', { hasText: 'Save as new version' }).click();
    await view.locator('.edit-outcome', { hasText: /Saved as version 2/ }).waitFor({ timeout: 120_000 });
    await treeRow(workbench, /^v2$/).waitFor({ timeout });
  });

  it('compares the edited version with its parent: Horsepower moved most, and the edit is listed', async () => {
    await workbench.runCommand('View: Close All Editors');
    await workbench.contextMenu(await versionRow(workbench, 'cars'), 'Compare with…');
    await workbench.pickQuickItem(/^v1/);
    const view = workbench.webview();
    await view.locator('h1', { hasText: 'Compare cars v2 with v1' }).waitFor({ timeout });
    await view.locator('.chart svg .mark, .chart canvas').first().waitFor({ timeout });
    assert.equal(await view.locator('button.link-button').first().getAttribute('data-feature'), 'Horsepower');
    await view.locator('h2', { hasText: 'Hand edits of v2' }).waitFor({ timeout });
    await showFromTop(workbench, view.locator('header.header'));
    await workbench.readmePicture('compare');
  });

  it('shows a classifier’s evaluation with its threshold moved', async () => {
    await workbench.runCommand('View: Close All Editors');
    await versionRow(workbench, 'penguins-sex');
    await enterChild(workbench, 3);
    await workbench.page.keyboard.press('Enter');
    const view = workbench.webview();
    await view.locator('h1', { hasText: /Evaluation: All data/ }).waitFor({ timeout });
    await view.locator('.chart canvas').first().waitFor({ timeout });
    await view.locator('input[type="range"]').fill('0.4');
    await view.locator('table.confusion caption', { hasText: 'threshold 0.40' }).waitFor({ timeout });
    await showFromTop(workbench, view.getByText('Charts for'));
    await workbench.readmePicture('evaluation');
  });

  it('exports the edited version’s report and opens it in the browser', async () => {
    await workbench.runCommand('View: Close All Editors');
    await workbench.contextMenu(await versionRow(workbench, 'cars'), 'Export Model Report…');
    // The save dialog offers <model>-v<N>-report.html in the workspace folder.
    await workbench.quickInput().locator('input').first().waitFor({ state: 'visible', timeout });
    await workbench.page.keyboard.press('Enter');
    const file = join(workbench.workspaceDir, 'cars-v2-report.html');
    await workbench.notification(/Saved the report as cars-v2-report\.html/).waitFor({ timeout });
    assert.ok(existsSync(file), `the report is saved as ${file}`);
    const page = await workbench.page.context().browser()!.newPage({ viewport: { width: 1100, height: 800 } });
    try {
      await page.goto(pathToFileURL(file).href);
      assert.equal(await page.locator('h1').textContent(), 'Model report: cars v2');
      await page.locator('h2', { hasText: /hand edits/i }).waitFor({ timeout });
      await page.locator('svg').first().waitFor({ timeout });
      await workbench.readmePicture('report', page);
    } finally {
      await page.close();
    }
  });

  it('adds a DuckDB connection and shows its table in the Data view, with the table’s summary beside it', async () => {
    await workbench.runCommand('View: Close All Editors');
    await workbench.openXModelsView();
    await workbench.runCommand('XModels: Add Data Connection…');
    await workbench.answerQuickInput('shop');
    await workbench.quickInput().locator('.quick-input-message', { hasText: /URL of shop/ }).waitFor({ timeout });
    await workbench.answerQuickInput(`duckdb://${join(databaseDir, 'shop.db')}`);
    const shop = treeRow(workbench, 'shop');
    await shop.waitFor({ timeout });
    assert.match((await shop.textContent()) ?? '', /DuckDB · 1 table/);
    if ((await shop.getAttribute('aria-expanded')) !== 'true') await shop.click();
    const main = treeRow(workbench, /^main$/);
    await main.waitFor({ timeout });
    if ((await main.getAttribute('aria-expanded')) !== 'true') await main.click();
    const table = treeRow(workbench, /^penguins$/);
    await table.waitFor({ timeout });
    assert.match((await table.textContent()) ?? '', /~\d+ rows/);
    await workbench.contextMenu(table, 'Summarize');
    const view = workbench.webview();
    await view.locator('h1', { hasText: /penguins/ }).waitFor({ timeout: 120_000 });
    await view.locator('svg.sparkline').first().waitFor({ timeout });
    await showFromTop(workbench, view.locator('h1'));
    await workbench.readmePicture('data-view');
  });
});
