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
/** The README's pictures, which the UI tests take (committed, unlike test-results/). */
export const readmePicturesDir = join(repoRoot, 'media', 'screenshots');
