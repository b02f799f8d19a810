// Where the real-VS-Code test layers keep their files. Everything generated lives under .vscode-test/ and
// test-results/, both ignored by git.
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..', '..');
export const cacheDir = join(repoRoot, '.vscode-test');
export const codeServerVersion = '4.100.3';
export const codeServerRoot = join(cacheDir, 'code-server');
export const codeServerPackageDir = join(codeServerRoot, 'node_modules', 'code-server');
export const vscodeServerDir = join(codeServerPackageDir, 'lib', 'vscode');
export const vscodeServerMain = join(vscodeServerDir, 'out', 'server-main.js');
export const chromiumPath = '/usr/bin/chromium';
export const datasetsDir = join(repoRoot, 'media', 'datasets');
export const hostSuiteDir = join(repoRoot, 'test', 'vscode', 'suite');
export const hostSuiteBundle = join(cacheDir, 'out', 'suite.js');
export const uiTestDir = join(repoRoot, 'test', 'vscode', 'ui');
export const resultsDir = join(repoRoot, 'test-results');
export const screenshotsDir = join(resultsDir, 'screenshots');
export const failureScreenshotsDir = join(resultsDir, 'failures');

/**
 * The .vsix to test instead of the development build (XMODELS_TEST_VSIX): it is installed into the server as a user
 * installs it, and the workbench loads no development extension, so the tests see only what the package ships.
 */
export function packagedExtension(): string | undefined {
  return process.env.XMODELS_TEST_VSIX ? resolve(process.env.XMODELS_TEST_VSIX) : undefined;
}
