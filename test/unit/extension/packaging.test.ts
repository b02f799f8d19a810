import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles } from './fixtures';

const root = join(__dirname, '../../..');
const MAX_SHIPPED_DATASETS_BYTES = 1024 * 1024;

/** Files `vsce package` puts in the .vsix (listed by vsce itself from .vscodeignore; dist/ only once built). */
function packagedFiles(): string[] {
  const out = execFileSync(process.execPath, [join(root, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' });
  return out.split('\n').map((line) => line.trim()).filter(Boolean);
}

describe('the .vsix contents', function () {
  this.timeout(30_000);
  let files: string[];
  before(() => {
    files = packagedFiles();
  });

  it('ships every file the manifest, the README and the code refer to', () => {
    const manifest = readFileSync(join(root, 'package.json'), 'utf8');
    const fromManifest = [...manifest.matchAll(/"(media\/[^"]+)"/g)].map((m) => m[1]);
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const fromReadme = [...readme.matchAll(/\]\(((?!https?:|#)[^)\s#]+)/g)].map((m) => m[1]);
    const code = sourceFiles(join(root, 'src')).map((f) => readFileSync(f, 'utf8')).join('\n');
    const fromCode = [...code.matchAll(/'media'((?:,\s*'[^']+')+)\)/g)].map((m) => ['media', ...[...m[1].matchAll(/'([^']+)'/g)].map((p) => p[1])].join('/'))
      .filter((path) => /\.[a-z]+$/.test(path));
    assert.ok(fromManifest.length >= 5 && fromReadme.length >= 2 && fromCode.length >= 2, 'references were found');
    const missing = [...fromManifest, ...fromReadme, ...fromCode].filter((path) => !files.includes(path));
    assert.deepEqual(missing, [], 'referred to but not packaged');
  });

  it('ships the small sample datasets only, and no sources or tests', () => {
    const datasets = files.filter((f) => f.startsWith('media/datasets/') && f.endsWith('.csv'));
    assert.ok(datasets.includes('media/datasets/penguins.csv'), 'the walkthrough\u2019s sample');
    assert.ok(!datasets.includes('media/datasets/flights-20k.csv'));
    const bytes = datasets.reduce((sum, f) => sum + statSync(join(root, f)).size, 0);
    assert.ok(bytes < MAX_SHIPPED_DATASETS_BYTES, `${bytes} bytes of sample data`);
    assert.deepEqual(files.filter((f) => /^(src|test|webview|scripts|node_modules|\.ci)\//.test(f) || f.endsWith('.map')), []);
  });
});
