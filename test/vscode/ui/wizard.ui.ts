// The autotrain wizard on VS Code's real QuickPick: started from the Explorer's context menu, walked with Enter,
// one Back button press, a typed model name, then the training notification, the model in the Models view and its
// profile; and, first, a long job cancelled from its progress notification.
import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import { useWorkbench } from '../lib/workbench';

describe('autotrain wizard in the workbench', () => {
  const workbench = useWorkbench({ datasets: ['cars.csv', 'movies.csv'] });

  /**
   * Waits until the quick input shows step `step` of 7 and, for a QuickPick, a row containing `rowText`: while its
   * rows load, the step shows as a busy, disabled QuickPick with the same title.
   */
  async function atStep(step: number, rowText?: string, file = 'cars.csv'): Promise<Locator> {
    const quickInput = workbench.quickInput();
    await quickInput.locator('.quick-input-title', { hasText: `Autotrain: ${file} (${step}/7)` }).waitFor({ timeout: 90_000 });
    if (rowText) await quickInput.locator('.monaco-list-row', { hasText: rowText }).first().waitFor({ timeout: 90_000 });
    return quickInput;
  }

  /** Starts the wizard from the Explorer's context menu. */
  async function startWizardOn(file: string): Promise<void> {
    await workbench.explorerContextMenu(file, /Autotrain from CSV/);
  }

  it('cancels a running job from its progress notification', async function () {
    this.timeout(300_000);
    await startWizardOn('movies.csv');
    for (const [step, row] of [[1, 'IMDB Rating'], [2, 'confidence'], [3, '?'], [4, 'complexity']] as const) {
      await atStep(step, row, 'movies.csv');
      await workbench.page.keyboard.press('Enter');
    }
    await atStep(5, undefined, 'movies.csv');
    await workbench.answerQuickInput('movies long job');
    for (const step of [6, 7]) {
      await atStep(step, undefined, 'movies.csv');
      await workbench.page.keyboard.press('Enter');
    }
    const progress = workbench.notification(/Training movies long job/);
    await progress.filter({ hasText: /searching parameters/ }).waitFor({ timeout: 60_000 });
    await workbench.screenshot('wizard-training-progress');
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await workbench.notification(/Training of movies long job was cancelled/).waitFor({ timeout: 60_000 });
  });

  it('walks the seven steps with Back, trains the model, lists it (not the cancelled one) and opens its profile', async function () {
    this.timeout(300_000);
    await startWizardOn('cars.csv');

    const summary = await atStep(1, 'Miles_per_Gallon');
    assert.ok(await summary.locator('.monaco-list-row', { hasText: 'Continue' }).first().isVisible());
    await workbench.page.keyboard.press('Enter');

    const labels = await atStep(2, 'confidence');
    assert.match((await labels.locator('.monaco-list-row').first().textContent()) ?? '', /recommended/);
    await workbench.page.keyboard.press('Enter');

    await atStep(3, '?');
    await workbench.page.keyboard.press('Enter');

    const features = await atStep(4, 'complexity');
    await workbench.screenshot('wizard-feature-engineering');
    await features.locator('.quick-input-titlebar .codicon-quick-input-back').click();
    await atStep(3, '?');
    await workbench.page.keyboard.press('Enter');
    await atStep(4, 'complexity');
    await workbench.page.keyboard.press('Enter');

    await atStep(5);
    await workbench.answerQuickInput('cars from ui');
    await atStep(6);
    await workbench.page.keyboard.press('Enter');
    await atStep(7, 'Start training');
    await workbench.page.keyboard.press('Enter');

    const trained = workbench.notification(/Trained cars from ui: .+ on [0-9,]+ test rows\./);
    await trained.waitFor({ timeout: 180_000 });
    const sideBar = await workbench.openXModelsView();
    await sideBar.locator('.monaco-list-row', { hasText: 'cars from ui' }).first().waitFor({ timeout: 30_000 });
    assert.equal(await sideBar.locator('.monaco-list-row', { hasText: 'movies long job' }).count(), 0);
    await workbench.screenshot('wizard-model-trained');
    await trained.getByRole('button', { name: 'Open Profile' }).click();
    await workbench.page.locator('iframe.webview').first().waitFor({ state: 'attached', timeout: 30_000 });
  });
});
