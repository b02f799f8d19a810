// The panels as a user sees them: models trained through the Explorer menu and the sample command, opened from
// the Models view, screenshotted in the light and dark themes; the chart code goes into editors.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { binaryCsv } from '../../unit/panels/fixtures';
import { enterChild, treeRow, versionRow } from '../lib/modelsTree';
import { useWorkbench, type Workbench } from '../lib/workbench';

const timeout = 60_000;

/** Trains a model from a CSV of the workspace through the Explorer menu, accepting every suggested step. */
async function trainFromExplorer(workbench: Workbench, file: string, model: string): Promise<void> {
  // The Explorer re-renders while files appear, so a click can miss its row or menu: try again until the wizard shows.
  for (let attempt = 1; ; attempt++) {
    const started = await workbench.explorerContextMenu(file, /Train Model from CSV/)
      .then(() => workbench.quickInput().waitFor({ state: 'visible', timeout: 15_000 }))
      .then(() => true, (error: unknown) => {
        if (attempt === 3) throw error;
        return false;
      });
    if (started) break;
    await workbench.page.keyboard.press('Escape');
  }
  await acceptSuggestions(workbench);
  await workbench.openXModelsView();
  await treeRow(workbench, model).waitFor({ timeout: 120_000 });
}

/** The train wizard's steps, each accepted with Enter (its suggestion is preselected). */
const MAX_WIZARD_STEPS = 12;

/** Presses Enter in the quick input until it stays closed; fails when it is still open after every step. */
async function acceptSuggestions(workbench: Workbench): Promise<void> {
  const input = workbench.quickInput();
  await input.waitFor({ state: 'visible', timeout });
  for (let step = 0; step < MAX_WIZARD_STEPS; step++) {
    // The first activation opens the Get Started walkthrough; in an empty editor area VS Code makes it the active,
    // focused editor even when opened inactive, which can take the keyboard from the wizard: give it back to the
    // wizard's box (clicking it keeps the preselected item) before each Enter.
    await input.locator('input').first().click({ timeout: 5_000 }).catch(() => undefined);
    await workbench.page.keyboard.press('Enter');
    const closed = await input.waitFor({ state: 'hidden', timeout: 1500 }).then(() => true, () => false);
    if (closed && !(await input.isVisible({ timeout: 1000 }).catch(() => false))) return;
  }
  throw new Error(`The train wizard was still open after ${MAX_WIZARD_STEPS} presses of Enter`);
}

/** Opens the evaluation of a model's newest version's first partition (Enter runs the row's command). */
async function openPartition(workbench: Workbench, model: string): Promise<void> {
  await versionRow(workbench, model);
  await enterChild(workbench, 3);
  await workbench.page.keyboard.press('Enter');
}

/** The webview showing a heading that matches `heading`, once its first chart has been drawn. */
async function panel(workbench: Workbench, heading: RegExp, chart = true): Promise<FrameLocator> {
  const view = workbench.webview();
  await view.locator('h1', { hasText: heading }).waitFor({ timeout });
  // The profile draws SVG charts, the other panels canvas ones.
  if (chart) await view.locator('.chart canvas, .chart svg .mark').first().waitFor({ timeout });
  return view;
}

/** Waits for the editor tab with this title (model panels are titled by model, version and panel). */
async function tab(workbench: Workbench, title: RegExp): Promise<void> {
  await workbench.page.locator('.tabs-container .tab .label-name', { hasText: title }).first().waitFor({ timeout });
}

async function screenshots(workbench: Workbench, name: string): Promise<void> {
  await workbench.page.mouse.move(700, 5);
  await workbench.runCommand('Notifications: Clear All Notifications');
  await workbench.setTheme('light');
  await workbench.page.waitForTimeout(500);
  await workbench.screenshot(`${name}-light`);
  await workbench.setTheme('dark');
  await workbench.page.waitForTimeout(500);
  await workbench.screenshot(`${name}-dark`);
}

describe('panels in the workbench', function () {
  const workbench = useWorkbench({ datasets: ['cars.csv', 'penguins.csv'] });
  writeFileSync(join(workbench.workspaceDir, 'ui-classifier.csv'), binaryCsv(6, 400));
  writeFileSync(join(workbench.workspaceDir, 'ui-wide-100.csv'), binaryCsv(99, 400));
  before(async function () {
    this.timeout(600_000);
    await workbench.waitForExtension();
    await trainFromExplorer(workbench, 'ui-classifier.csv', 'ui-classifier');
    await trainFromExplorer(workbench, 'ui-wide-100.csv', 'ui-wide-100');
    await workbench.runCommand('XModels: Train a Sample Model (Penguins)');
    await acceptSuggestions(workbench);
    await treeRow(workbench, 'penguins').waitFor({ timeout: 120_000 });
  });
  afterEach(async () => {
    await workbench.page.keyboard.press('Escape');
    await workbench.runCommand('View: Close All Editors');
  });

  it('opens the profile of a classifier, switches feature, and refits one feature beside the old chart', async function () {
    this.timeout(180_000);
    await workbench.contextMenu(await versionRow(workbench, 'ui-classifier'), 'Open Profile');
    const view = await panel(workbench, /Profile: target/);
    await tab(workbench, /^ui-classifier v\d+ · Profile$/);
    await screenshots(workbench, 'panels-profile-classifier');
    const features = view.locator('.feature-list button');
    assert.ok((await features.count()) >= 4, 'the classifier lists its features');
    const second = features.nth(1);
    const name = (await second.getAttribute('data-feature')) ?? '';
    await second.click();
    await view.locator('h2', { hasText: name }).waitFor({ timeout });
    await view.locator('summary', { hasText: 'Refit this feature' }).click();
    const smoothing = view.locator('vscode-textfield[name="smoothing"]');
    await smoothing.locator('input').fill('2');
    await view.locator('vscode-button', { hasText: `Refit ${name}` }).click();
    await view.locator('h3', { hasText: /New version \d+/ }).waitFor({ timeout: 120_000 });
    assert.equal(await view.locator('.chart svg').count(), 3, 'importances, this version and the new version');
    await workbench.screenshot('panels-profile-refit-dark');
  });

  it('opens the profile of a regressor', async () => {
    await workbench.contextMenu(await versionRow(workbench, 'penguins'), 'Open Profile');
    await panel(workbench, /Profile: Body Mass/);
    await tab(workbench, /^penguins v\d+ · Profile$/);
    await screenshots(workbench, 'panels-profile-regressor');
  });

  it('opens the evaluation of a classifier and updates the confusion matrix with the threshold', async () => {
    await openPartition(workbench, 'ui-classifier');
    const view = await panel(workbench, /Evaluation: All data/);
    await tab(workbench, /^ui-classifier v\d+ · Evaluation · All data$/);
    const caption = view.locator('table.confusion caption');
    assert.match((await caption.textContent()) ?? '', /threshold 0\.50/);
    await view.locator('input[type="range"]').fill('0.3');
    await view.locator('table.confusion caption', { hasText: 'threshold 0.30' }).waitFor({ timeout });
    await screenshots(workbench, 'panels-evaluation-classifier');
  });

  it('opens the evaluation and the feature info of a regressor', async function () {
    this.timeout(180_000);
    await openPartition(workbench, 'penguins');
    await panel(workbench, /Evaluation: All data/);
    await screenshots(workbench, 'panels-evaluation-regressor');
    await workbench.runCommand('View: Close All Editors');
    await workbench.contextMenu(await versionRow(workbench, 'penguins'), 'Open Feature Info');
    await panel(workbench, /Feature info/);
    await tab(workbench, /^penguins v\d+ · Feature info$/);
    await screenshots(workbench, 'panels-feature-info-regressor');
  });

  // How long it takes is measured by `npm run bench -- workbench` (test/bench/workbench.bench.ts).
  it('shows a 100-feature profile: every feature ranked by importance, the top one charted', async function () {
    this.timeout(180_000);
    await workbench.contextMenu(await versionRow(workbench, 'ui-wide-100'), 'Open Profile');
    const view = await panel(workbench, /Profile: target/);
    assert.equal(await view.locator('.fact', { hasText: 'Features' }).locator('.fact-value').textContent(), '100');
    const buttons = view.locator('.feature-list button');
    const names = await buttons.evaluateAll((all) => all.map((button) => button.getAttribute('data-feature') ?? ''));
    assert.deepEqual([...names].sort(), [...Array.from({ length: 99 }, (_, i) => `f${i + 1}`), 'segment'].sort());
    const shares = (await buttons.locator('.muted').allTextContents()).map((text) => Number.parseFloat(text));
    assert.deepEqual(shares, [...shares].sort((a, b) => b - a), 'listed by importance, highest first');
    assert.equal(await buttons.first().getAttribute('aria-current'), 'true');
    await view.locator('h2', { hasText: new RegExp(`^${names[0]}$`) }).waitFor({ timeout });
    assert.match((await view.locator('.chart svg').first().getAttribute('aria-label')) ?? '', new RegExp(`^Top 15 feature importances: ${names[0]} `));
    await workbench.page.mouse.move(700, 5);
    await workbench.screenshot('panels-profile-100-features-dark');
  });

  it('summarizes a CSV, shows its chart code, and puts the code in editors', async function () {
    this.timeout(180_000);
    await workbench.explorerContextMenu('cars.csv', /Summarize Dataset/);
    await workbench.webview().locator('h1', { hasText: /cars/ }).waitFor({ timeout: 120_000 });
    const summary = await panel(workbench, /cars/, false);
    await summary.locator('svg.sparkline').first().waitFor({ timeout });
    await screenshots(workbench, 'panels-dataset-summary');

    await workbench.runCommand('File: New Untitled Text File');
    await workbench.page.keyboard.type('# chart\n');
    await workbench.page.locator('.tab', { hasText: 'Summary: cars' }).click();
    await summary.locator('vscode-button', { hasText: 'Visualize this goal' }).first().click();
    const chart = workbench.webview();
    await chart.locator('pre.code-block').waitFor({ timeout });
    await screenshots(workbench, 'panels-visualization');
    const code = (await chart.locator('pre.code-block').textContent()) ?? '';
    assert.match(code, /def plot\(data\b/);

    await chart.locator('vscode-textfield input').fill('log scale');
    await chart.locator('vscode-button', { hasText: 'Fix this chart' }).click();
    await chart.locator('.fix-diff .diff-added', { hasText: /log/ }).waitFor({ timeout });
    await workbench.screenshot('panels-visualization-fix-diff-dark');
    await chart.locator('.fix-diff vscode-button', { hasText: 'Apply' }).click();
    await chart.locator('pre.code-block', { hasText: /log/ }).first().waitFor({ timeout });
    assert.match((await chart.locator('p', { hasText: /Edited: log scale/ }).textContent()) ?? '', /Edited: log scale\./);

    await chart.locator('vscode-button', { hasText: 'Insert at cursor' }).click();
    await chart.locator('.notice', { hasText: /Inserted into Untitled-1/ }).waitFor({ timeout });
    // The editor renders spaces as non-breaking spaces and lines without breaks, hence \s and no ^/$ below.
    const editorText = () => workbench.page.locator('.editor-instance .view-lines').first().textContent();
    assert.match((await editorText()) ?? '', /#\schart.*def\splot\(data\b/s);
    await workbench.screenshot('panels-visualization-inserted-dark');

    await chart.locator('vscode-button', { hasText: 'Open as new file' }).click();
    await workbench.page.locator('.tab', { hasText: 'Untitled-2' }).waitFor({ timeout });
    await workbench.page.locator('.tab', { hasText: 'Untitled-2' }).click();
    // Several editor groups may be open: read the one whose active tab is the new file.
    const newFileLines = workbench.page
      .locator('.editor-group-container', { has: workbench.page.locator('.tab.active', { hasText: 'Untitled-2' }) })
      .locator('.editor-instance .view-lines');
    await newFileLines.filter({ hasText: /def\splot/ }).first().waitFor({ timeout });
    const opened = (await newFileLines.first().textContent()) ?? '';
    assert.match(opened, /def\splot\(data\b/);
    assert.doesNotMatch(opened, /#\schart/, 'the code is in a new file, not the one it was inserted into');
  });
});
