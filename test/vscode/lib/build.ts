// Builds the extension (npm run build) when its bundle is missing or out of date.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths';

function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function isBuildStale(): boolean {
  const bundle = join(repoRoot, 'dist', 'extension.js');
  if (!existsSync(bundle)) return true;
  const sources = Math.max(newestMtime(join(repoRoot, 'src')), newestMtime(join(repoRoot, 'webview')));
  return sources > statSync(bundle).mtimeMs;
}

/** Builds when dist/extension.js is missing, or (with `whenStale`) older than a source file. */
export function ensureBuilt({ whenStale = false } = {}): void {
  const missing = !existsSync(join(repoRoot, 'dist', 'extension.js'));
  if (!missing && !(whenStale && isBuildStale())) return;
  console.log('Building the extension (npm run build)');
  const r = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`npm run build failed with exit code ${r.status ?? r.signal}`);
}
