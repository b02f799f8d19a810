// Runs the UI tests (test/vscode/ui/**/*.ui.ts) with mocha and tsx; each test file starts its own workbench
// through the fixture in workbench.ts.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ensureBuilt } from './build';
import { ensureCodeServer } from './codeServer';
import { repoRoot, uiTestDir } from './paths';

export function listUiTestFiles(): string[] {
  return (readdirSync(uiTestDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ui.ts'))
    .map((f) => join(uiTestDir, f))
    .sort();
}

/**
 * Runs the UI tests, or only the `*.ui.ts` files among the arguments (the others go to mocha); returns the process
 * exit code (non-zero on any failure or when no test ran).
 */
export function runUiTests(argv: string[] = []): number {
  const started = Date.now();
  try {
    ensureCodeServer();
    ensureBuilt();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
  const chosen = argv.filter((arg) => arg.endsWith('.ui.ts'));
  const extraArgs = argv.filter((arg) => !arg.endsWith('.ui.ts'));
  const files = chosen.length ? chosen.map((file) => resolve(repoRoot, file)) : listUiTestFiles();
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
