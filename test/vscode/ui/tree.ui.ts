// The model explorer as a user sees it: right-click a CSV in the Explorer, train with the suggested answers (Enter
// at every step: penguins `Species`, a multiclass classifier), and the new model appears in the Models tree with its
// class count; its profile and evaluation panels open; screenshots of the tree in light and dark themes.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { useWorkbench, type Workbench } from '../lib/workbench';

/** Waits for the QuickPick or InputBox whose placeholder or prompt contains `text`, then accepts it with Enter. */
async function acceptStep(workbench: Workbench, text: string): Promise<void> {
  const widget = workbench.quickInput();
  const step = widget.locator(`input[placeholder*="${text}"]`).or(widget.locator('.quick-input-message', { hasText: text }));
  await step.first().waitFor({ state: 'visible', timeout: 30_000 });
  await workbench.page.keyboard.press('Enter');
  await step.first().waitFor({ state: 'hidden', timeout: 30_000 });
}

describe('Models tree (UI)', function () {
  this.timeout(180_000);
  const workbench = useWorkbench({ datasets: ['penguins.csv'] });

  it('trains a model from a CSV’s Explorer context menu and shows it in the Models tree', async () => {
    await workbench.openXModelsView();
    await workbench.page.locator('.statusbar-item', { hasText: 'XModels: local' }).waitFor({ timeout: 90_000 });
    await workbench.page.getByText('No models in this team yet.').waitFor({ timeout: 30_000 });

    await workbench.explorerContextMenu('penguins.csv', /Train Model from CSV/);
    await acceptStep(workbench, 'Target column');
    await acceptStep(workbench, 'Model type for');
    await acceptStep(workbench, 'Partition column');
    await acceptStep(workbench, 'Columns to leave out');
    await acceptStep(workbench, 'Model name');
    await acceptStep(workbench, 'Press Enter to continue');

    await workbench.notification(/Trained penguins/).waitFor({ timeout: 90_000 });
    await workbench.openXModelsView();
    const row = workbench.treeRows().filter({ hasText: 'penguins' }).first();
    await row.waitFor({ timeout: 30_000 });
    assert.match((await row.textContent()) ?? '', /penguins.*classifier \(3 classes\) · Species/);
  });

  it('shows the model’s version with its description, in the light and the dark theme', async () => {
    const model = workbench.treeRows().filter({ hasText: 'penguins' }).first();
    if ((await model.getAttribute('aria-expanded')) !== 'true') await model.click();
    const version = workbench.treeRows().filter({ hasText: /v1\s*AUC \d\.\d{3} · train ·/ }).first();
    await version.waitFor({ timeout: 30_000 });
    assert.ok(await version.getByText(/AUC \d\.\d{3}/).isVisible(), 'the headline metric leads the description, readable at the default width');

    await workbench.setTheme('light');
    const light = await workbench.screenshot('tree-light');
    await workbench.setTheme('dark');
    const dark = await workbench.screenshot('tree-dark');
    assert.ok(existsSync(light) && existsSync(dark));
  });

  it('opens the multiclass profile with its class picker and the evaluation with its confusion heat map', async () => {
    const version = workbench.treeRows().filter({ hasText: /v1\s*AUC \d\.\d{3} · train ·/ }).first();
    await workbench.contextMenu(version, 'Open Profile');
    const profile = workbench.webview();
    await profile.locator('h1', { hasText: 'Profile: Species' }).waitFor({ timeout: 60_000 });
    await profile.getByText(/Multiclass classifier \(3 classes, one-vs-rest\)/).waitFor({ timeout: 30_000 });
    await workbench.runCommand('View: Close All Editors');

    if ((await version.getAttribute('aria-expanded')) !== 'true') await version.click();
    const partition = workbench.treeRows().filter({ hasText: 'All data' }).first();
    await partition.waitFor({ timeout: 30_000 });
    await workbench.contextMenu(partition, 'Open Evaluation');
    const evaluation = workbench.webview();
    await evaluation.locator('h1', { hasText: 'Evaluation: All data' }).waitFor({ timeout: 60_000 });
    await evaluation.locator('table.confusion.heat').waitFor({ timeout: 30_000 });
    assert.equal(await evaluation.locator('table.confusion.heat tbody tr').count(), 3, 'one row per actual class');
    await workbench.screenshot('evaluation-multiclass');
  });
});
