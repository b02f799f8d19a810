// Hand edits in the profile panel as a user makes them: a range of a feature's bins selected with the keyboard, made
// never increasing, the test metrics moving in the preview, undone and redone with the keys, then saved as a new
// version that the Models tree shows. The model is trained beforehand on the data directory of the local service the
// extension starts, from a stored dataset, so the preview has metrics.
import * as assert from 'node:assert/strict';
import { XModelsClient } from '../../../src/client';
import { binaryCsv } from '../../unit/panels/fixtures';
import { removeDir, startService, tempDataDir } from '../../unit/service/harness';
import { treeRow, versionRow } from '../lib/modelsTree';
import { useWorkbench } from '../lib/workbench';

const timeout = 60_000;

describe('profile panel: hand edits (UI)', function () {
  this.timeout(240_000);
  const dataDir = tempDataDir();
  before(async function () {
    this.timeout(120_000);
    const service = await startService({ dataDir });
    const client = new XModelsClient({ baseUrl: service.url, apiKey: service.apiKey, proxy: null });
    try {
      // binaryCsv's target rises with f1, so f1's fitted steps rise: making them never increasing changes the model.
      const dataset = await client.datasets.upload({ csv_content: binaryCsv(6, 400), name: 'ui-edit.csv' });
      await client.models.trainModel({ dataset_id: dataset.dataset_id, target_column: 'target', model_name: 'ui-edit' });
    } finally {
      await client.close();
      await service.stop();
    }
  });
  const workbench = useWorkbench({ datasets: [], serverSettings: { 'xmodels.localService.dataDirectory': dataDir } });
  after(() => removeDir(dataDir));

  it('makes a range of bins never increasing, sees the test metrics change, undoes, redoes and saves a new version', async () => {
    await workbench.contextMenu(await versionRow(workbench, 'ui-edit'), 'Open Profile');
    const view = workbench.webview();
    await view.locator('.edit-surface svg .mark').first().waitFor({ timeout });
    await view.locator('.feature-list button', { hasText: /^f1/ }).click();
    await view.locator('h2', { hasText: /^f1$/ }).waitFor({ timeout });

    const surface = view.locator('.edit-surface');
    await surface.focus();
    const keys = workbench.page.keyboard;
    await keys.press('Home');
    await keys.press('Shift+End');
    await view.locator('.selection-status', { hasText: /^Selected bins / }).waitFor({ timeout });
    await keys.press('d');

    const edits = view.locator('.edits li');
    assert.match((await edits.first().textContent()) ?? '', /^Make bins .* of f1 never increasing$/);
    assert.equal(await view.locator('.feature-list button.edited', { hasText: /^f1/ }).count(), 1, 'f1 is marked edited in the list');
    assert.equal(await surface.locator('path.fitted').count(), 1, 'the fitted steps stay behind the edited ones');
    const auc = view.locator('table.metric-deltas tr', { hasText: /^ROC AUC/ });
    await auc.waitFor({ timeout });
    await view.locator('.edit-outcome [aria-busy]').waitFor({ state: 'detached', timeout });
    const testCell = (await auc.locator('td').nth(2).textContent()) ?? '';
    assert.match(testCell, /^[\d.]+ → [\d.]+ \(-[\d.e-]+, worse\)$/, `flattening f1 lowers the test AUC: ${testCell}`);
    await view.locator('.edit-outcome').scrollIntoViewIfNeeded();
    await workbench.page.mouse.move(700, 5);
    await workbench.setTheme('light');
    await workbench.screenshot('profile-edit-monotone-light');
    await workbench.setTheme('dark');
    await workbench.screenshot('profile-edit-monotone-dark');
    await surface.focus();

    await keys.press('Control+z');
    await view.locator('.edits summary', { hasText: 'No edits yet' }).waitFor({ timeout });
    assert.equal(await surface.locator('path.fitted').count(), 0, 'undone: the fitted steps alone');
    await keys.press('Control+Shift+z');
    await view.locator('.edits summary', { hasText: /^Edits \(1\)/ }).waitFor({ timeout });

    await view.locator('vscode-button', { hasText: 'Save as new version' }).click();
    await view.locator('.edit-outcome', { hasText: /Saved as version 2/ }).waitFor({ timeout: 120_000 });
    await treeRow(workbench, /^v2$/).waitFor({ timeout });
    await view.locator('.edits summary', { hasText: 'No edits yet' }).waitFor({ timeout });
  });
});
