import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

describe('localisation bundle', () => {
  it('l10n/bundle.l10n.json holds exactly the vscode.l10n.t messages of src (run npm run l10n after changing one)', async () => {
    const root = join(__dirname, '../../..');
    const { extractBundle, BUNDLE_PATH } = (await import(pathToFileURL(join(root, 'scripts/l10n-bundle.mjs')).href)) as {
      extractBundle(root?: string): Record<string, string>;
      BUNDLE_PATH: string;
    };
    const committed = JSON.parse(readFileSync(join(root, BUNDLE_PATH), 'utf8')) as Record<string, string>;
    const extracted = extractBundle(root);
    assert.ok(Object.keys(extracted).length > 20, 'the extension routes its messages through vscode.l10n');
    assert.deepEqual(committed, extracted);
    assert.ok(extracted['XModels cannot reach the {0}: {1}'], 'placeholders stay in the message');
  });

});
