// Runs the UI tests (test/vscode/ui/**/*.ui.ts) with mocha and tsx; each test file starts its own workbench
// through the fixture in workbench.ts.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureBuilt } from './build';
import { ensureCodeServer } from './codeServer';
import { repoRoot, uiTestDir } from './paths';

export function listUiTestFiles(): string[] {
  return (readdirSync(uiTestDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ui.ts'))
    .map((f) => join(uiTestDir, f))
    .sort();
}

/** Runs the UI tests; returns the process exit code (non-zero on any failure or when no test ran). */
export function runUiTests(extraArgs: string[] = []): number {
  const started = Date.now();
  try {
    ensureCodeServer();
    ensureBuilt();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
  const files = listUiTestFiles();
  if (files.length === 0) {
    console.error(`No UI test files (*.ui.ts) under ${relative(repoRoot, uiTestDir)}`);
    return 1;
  }
  const mocha = join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
  const args = [
    mocha,
    '--no-config',
    '--require', 'tsx/cjs',
    '--extension', 'ts',
    '--ui', 'bdd',
    '--timeout', process.env.XMODELS_UI_TEST_TIMEOUT_MS ?? '60000',
    '--reporter', 'spec',
    '--fail-zero',
    ...extraArgs,
    ...files,
  ];
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' });
  console.log(`UI tests took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.status ?? 1;
}
