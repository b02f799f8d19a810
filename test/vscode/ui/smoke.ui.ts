// The XModels activity-bar item shows once the extension is loaded, clicking it shows the Models view, and the local
// service it ships connects. scripts/test-packaged.mjs (part of npm test) also runs it against the packaged .vsix.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { useWorkbench } from '../lib/workbench';

describe('XModels in the workbench (smoke)', () => {
  const workbench = useWorkbench();

  it('shows the XModels item in the activity bar', async () => {
    await workbench.waitForExtension();
    assert.equal(await workbench.activityBarItem().getAttribute('aria-label'), 'XModels');
  });

  it('shows the Models and the Data view when the XModels item is clicked', async () => {
    const sideBar = await workbench.openXModelsView();
    assert.match((await sideBar.locator('.composite.title h2').textContent()) ?? '', /^XModels$/);
    assert.deepEqual(await sideBar.locator('.pane-header h3.title').allTextContents(), ['Models', 'Data']);
    const path = await workbench.screenshot('smoke-models-view');
    assert.ok(existsSync(path), `no screenshot at ${path}`);
  });

  it('starts the local service it ships and shows the connection in the status bar', async () => {
    const status = workbench.page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: /XModels: local/ });
    await status.waitFor({ state: 'visible', timeout: 60_000 });
    assert.match((await status.textContent()) ?? '', /XModels: local · /);
  });

  it('switches between the dark and the light theme', async () => {
    await workbench.setTheme('dark');
    await workbench.screenshot('smoke-models-view-dark');
    await workbench.setTheme('light');
    assert.ok(await workbench.page.locator('.monaco-workbench.vs').isVisible());
  });
});
