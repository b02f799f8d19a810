// Extension-host test entry (the `extensionTestsPath` of VS Code): runs every test/vscode/suite/**/*.test.ts
// with mocha inside the extension host and writes a JSON report that the launcher reads. The launcher bundles
// this file with esbuild, which includes every `*.test.ts` through the glob import below and passes their
// names in XMODELS_SUITE_FILES, so a new test file needs no registration.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Mocha from 'mocha';

declare const XMODELS_SUITE_FILES: string[];

/** Where the report goes: `XMODELS_HOST_TEST_REPORT`, or host-test-report.json beside the bundle. */
export const reportPath = process.env.XMODELS_HOST_TEST_REPORT ?? join(__dirname, 'host-test-report.json');

export interface HostTestResult {
  title: string;
  file: string;
  state: 'passed' | 'failed';
  durationMs: number;
  message?: string;
  stack?: string;
}

export interface HostTestReport {
  passes: number;
  failures: number;
  tests: HostTestResult[];
  /** Set when the suite could not be loaded or run at all. */
  error?: string;
}

function writeReport(report: HostTestReport): void {
  mkdirSync(dirname(reportPath), { recursive: true });
  writeFileSync(reportPath, JSON.stringify(report, null, 2));
}

async function loadSuiteFiles(mocha: Mocha): Promise<void> {
  for (const name of XMODELS_SUITE_FILES) {
    mocha.suite.emit('pre-require', globalThis, name, mocha);
    await import(`./${name.replace(/\.test\.ts$/, '')}.test.ts`);
    mocha.suite.emit('post-require', globalThis, name, mocha);
  }
}

function runMocha(mocha: Mocha, tests: HostTestResult[]): Promise<number> {
  return new Promise((resolveRun) => {
    const runner = mocha.run(resolveRun);
    runner.on('pass', (test) => {
      tests.push({ title: test.fullTitle(), file: test.file ?? '', state: 'passed', durationMs: test.duration ?? 0 });
    });
    runner.on('fail', (test, err: Error) => {
      tests.push({
        title: test.fullTitle(),
        file: test.file ?? '',
        state: 'failed',
        durationMs: test.duration ?? 0,
        message: err.message,
        stack: err.stack,
      });
    });
  });
}

export async function run(): Promise<void> {
  const timeout = Number(process.env.XMODELS_HOST_TEST_TIMEOUT_MS ?? 60_000);
  const mocha = new Mocha({ ui: 'bdd', timeout, color: false, reporter: 'spec' });
  const tests: HostTestResult[] = [];
  let failures: number;
  try {
    await loadSuiteFiles(mocha);
    failures = await runMocha(mocha, tests);
  } catch (err) {
    writeReport({ passes: 0, failures: 1, tests, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    throw err;
  }
  writeReport({ passes: tests.filter((t) => t.state === 'passed').length, failures, tests });
  if (failures > 0) throw new Error(`${failures} extension-host test(s) failed`);
}
