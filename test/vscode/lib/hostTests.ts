// Runs the extension-host suite (test/vscode/suite) inside a real VS Code: VS Code's server opened in headless
// Chromium, or a desktop VS Code through @vscode/test-electron when one is available.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SourceMap } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { launchChromium } from './browser';
import { ensureBuilt } from './build';
import { ensureCodeServer } from './codeServer';
import { desktopCodeExecutable } from './desktop';
import { hostSuiteBundle, hostSuiteDir, repoRoot } from './paths';
import { startVSCodeServer } from './server';
import { createSampleWorkspace } from './workspace';
import type { HostTestReport } from '../suite/index';

const runTimeoutMs = Number(process.env.XMODELS_HOST_RUN_TIMEOUT_MS ?? 10 * 60_000);

/** Every `*.test.ts` under test/vscode/suite, relative to it. */
export function listSuiteFiles(): string[] {
  return (readdirSync(hostSuiteDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => f.split('\\').join('/'))
    .sort();
}

/** Bundles the suite (index.ts and every test file, mocha included, `vscode` external) into one file. */
export async function bundleHostSuite(): Promise<string[]> {
  const files = listSuiteFiles();
  await build({
    entryPoints: [join(hostSuiteDir, 'index.ts')],
    outfile: hostSuiteBundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // DuckDB is a native module: loaded from node_modules, where the suites build their test databases with it.
    external: ['vscode', '@duckdb/node-api'],
    sourcemap: 'inline',
    define: { XMODELS_SUITE_FILES: JSON.stringify(files) },
    logLevel: 'warning',
    // mocha's parallel mode resolves files next to itself; the suite runs serially, so those are never loaded.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
  return files;
}

async function waitForReport(reportPath: string, isGone: () => string | undefined): Promise<HostTestReport> {
  const deadline = Date.now() + runTimeoutMs;
  while (!existsSync(reportPath)) {
    const gone = isGone();
    if (gone) throw new Error(`The extension-host tests wrote no report: ${gone}`);
    if (Date.now() > deadline) {
      throw new Error(
        `The extension-host tests wrote no report within ${runTimeoutMs / 1000} s (${reportPath}). ` +
          'A test may hang, or the extension host failed to start: rerun with XMODELS_TEST_VERBOSE=1 to see its output.',
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 100));
  return JSON.parse(readFileSync(reportPath, 'utf8')) as HostTestReport;
}

async function runInBrowser(reportPath: string, workspace: string): Promise<HostTestReport> {
  ensureCodeServer();
  const verbose = process.env.XMODELS_TEST_VERBOSE === '1';
  const server = await startVSCodeServer({ env: { XMODELS_HOST_TEST_REPORT: reportPath }, verbose });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    let closed: string | undefined;
    page.on('close', () => (closed = 'the workbench page closed'));
    page.on('crash', () => (closed = 'the workbench page crashed'));
    if (verbose) page.on('console', (m) => console.log(`[workbench ${m.type()}] ${m.text()}`));
    await page.goto(server.workbenchUrl({ folder: workspace, extensionTestsPath: hostSuiteBundle }));
    return await waitForReport(reportPath, () => closed);
  } finally {
    await browser.close();
    await server.stop();
  }
}

async function runInElectron(reportPath: string, workspace: string): Promise<HostTestReport> {
  const { runTests } = await import('@vscode/test-electron');
  const vscodeExecutablePath = desktopCodeExecutable();
  await runTests({
    ...(vscodeExecutablePath ? { vscodeExecutablePath } : { version: '1.100.3' }),
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: hostSuiteBundle,
    extensionTestsEnv: { XMODELS_HOST_TEST_REPORT: reportPath },
    launchArgs: [workspace, '--disable-extensions', '--skip-welcome', '--skip-release-notes'],
  }).catch(() => undefined); // A failing suite makes runTests reject; the report tells what failed.
  return waitForReport(reportPath, () => (existsSync(reportPath) ? undefined : 'VS Code exited'));
}

/**
 * Rewrites `suite.js:line:column` positions in a stack to the test sources, with the bundle's inline source map
 * (the extension host formats stacks itself, so Node's own source-map support does not apply there).
 */
function sourcePositions(): (stack: string) => string {
  const inline = /\/\/# sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(readFileSync(hostSuiteBundle, 'utf8'));
  if (!inline) return (stack) => stack;
  const map = new SourceMap(JSON.parse(Buffer.from(inline[1], 'base64').toString('utf8')));
  return (stack) =>
    stack.replace(/[^\s(]*suite\.js:(\d+):(\d+)/g, (position, line: string, column: string) => {
      const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
      if (!('originalSource' in entry)) return position;
      const source = relative(repoRoot, resolve(dirname(hostSuiteBundle), entry.originalSource));
      return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    });
}

function printReport(report: HostTestReport): void {
  const mapStack = sourcePositions();
  for (const t of report.tests) {
    console.log(`  ${t.state === 'passed' ? 'ok  ' : 'FAIL'} ${t.title} (${t.durationMs} ms)`);
    if (t.state === 'failed') console.log(`       ${mapStack(t.stack ?? t.message ?? '').split('\n').join('\n       ')}`);
  }
  if (report.error) console.log(`The suite could not run:\n${report.error}`);
  console.log(`${report.passes} passed, ${report.failures} failed`);
}

/** Runs the suite; returns the process exit code (non-zero on any failure or when no test ran). */
export async function runHostTests(): Promise<number> {
  const started = Date.now();
  const useElectron = process.env.XMODELS_TEST_ELECTRON === '1' || desktopCodeExecutable() !== undefined;
  const tempDir = mkdtempSync(join(tmpdir(), 'xmodels-host-tests-'));
  const reportPath = join(tempDir, 'report.json');
  const workspace = createSampleWorkspace(join(tempDir, 'workspace'));
  try {
    ensureBuilt();
    const files = await bundleHostSuite();
    console.log(`Extension-host suite: ${files.length} file(s) bundled into ${relative(repoRoot, hostSuiteBundle)}`);
    console.log(`Running in ${useElectron ? 'a desktop VS Code (test-electron)' : "VS Code's server in headless Chromium"}`);
    const report = await (useElectron ? runInElectron : runInBrowser)(reportPath, workspace);
    printReport(report);
    console.log(`Extension-host tests took ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (report.tests.length === 0) {
      console.log('No extension-host test ran.');
      return 1;
    }
    return report.failures === 0 && !report.error ? 0 : 1;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 1;
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
}
