// The extension is installed, opening its view activates it, and its declared commands match the registered ones.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const extensionId = 'xmodels.xmodels';

interface Manifest {
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
  };
}

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(extensionId);
  assert.ok(ext, `extension ${extensionId} is not installed in this VS Code`);
  return ext;
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs / 1000} s waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Commands the workbench itself registers for each contributed view (focus, reset location, ...). */
const viewCommandSuffixes = ['focus', 'resetViewLocation', 'toggleVisibility', 'removeView', 'open'];

function isViewCommand(command: string, viewIds: string[]): boolean {
  return viewIds.some((id) => viewCommandSuffixes.some((suffix) => command === `${id}.${suffix}`));
}

describe('XModels extension (smoke)', () => {
  it('is installed under the id xmodels.xmodels', () => {
    const ext = extension();
    assert.equal(ext.packageJSON.name, 'xmodels');
    assert.equal(ext.packageJSON.publisher, 'xmodels');
  });

  it('opens its Models view from the XModels view container, which activates it', async () => {
    const ext = extension();
    await vscode.commands.executeCommand('workbench.view.extension.xmodels');
    await waitFor(() => ext.isActive, 'opening the XModels view container activates the extension');
    await vscode.commands.executeCommand('xmodels.models.focus');
  });

  it('registers every command declared in package.json, and declares every xmodels.* command it registers', async () => {
    const ext = extension();
    await ext.activate();
    const manifest = ext.packageJSON as Manifest;
    const declared = manifest.contributes.commands.map((c) => c.command);
    const viewIds = Object.values(manifest.contributes.views).flat().map((v) => v.id);
    const registered = (await vscode.commands.getCommands(true)).filter(
      (c) => c.startsWith('xmodels.') && !isViewCommand(c, viewIds),
    );
    assert.ok(declared.length > 0, 'package.json declares no commands');
    const notRegistered = declared.filter((c) => !registered.includes(c));
    const notDeclared = registered.filter((c) => !declared.includes(c));
    assert.deepEqual(notRegistered, [], `declared in package.json but not registered: ${notRegistered.join(', ')}`);
    assert.deepEqual(notDeclared, [], `registered but not declared in package.json: ${notDeclared.join(', ')}`);
  });
});
