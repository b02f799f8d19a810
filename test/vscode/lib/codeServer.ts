// Installs VS Code's server and web workbench (from the npm package code-server) into .vscode-test/code-server,
// offline and without code-server's own install scripts, which fail on these machines (they want --unsafe-perm,
// Debian's libkrb5-dev for the kerberos module, and download ripgrep). Idempotent: a finished install leaves a
// marker file, and later calls return at once.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureDebianPackages } from '../../../scripts/debianPackages.cjs';
import {
  codeServerPackageDir,
  codeServerRoot,
  codeServerVersion,
  repoRoot,
  vscodeServerDir,
  vscodeServerMain,
} from './paths';

const marker = join(codeServerRoot, `.installed-${codeServerVersion}`);

/**
 * Debian packages VS Code in the browser needs (`npm start` without a desktop VS Code, and `npm test`'s VS Code
 * layers): Chromium, ripgrep, and what `npm rebuild` of the server's native modules needs, node-gyp's compilers
 * (`make`, `g++`, `python3`) and kerberos' headers (`libkrb5-dev`); a minimal Debian has none of them.
 */
const DEBIAN_PACKAGES = ['chromium', 'ripgrep', 'make', 'g++', 'python3', 'libkrb5-dev'];

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): void {
  const started = Date.now();
  console.log(`  $ ${[cmd, ...args].join(' ')}  (in ${relative(repoRoot, cwd) || '.'})`);
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  if (r.status !== 0) {
    process.stderr.write(String(r.stdout) + String(r.stderr));
    throw new Error(`"${[cmd, ...args].join(' ')}" failed in ${cwd} with exit code ${r.status ?? r.signal}`);
  }
  console.log(`    done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export function isCodeServerInstalled(): boolean {
  return existsSync(marker) && existsSync(vscodeServerMain);
}

/** Makes sure the Debian packages and code-server are installed; returns whether it installed code-server. */
export function ensureCodeServer(): { installed: boolean; seconds: number } {
  const started = Date.now();
  ensureDebianPackages(DEBIAN_PACKAGES);
  if (isCodeServerInstalled()) return { installed: false, seconds: (Date.now() - started) / 1000 };
  console.log(`Installing code-server ${codeServerVersion} into ${relative(repoRoot, codeServerRoot)}`);
  rmSync(codeServerRoot, { recursive: true, force: true });
  mkdirSync(codeServerRoot, { recursive: true });
  writeFileSync(join(codeServerRoot, 'package.json'), JSON.stringify({ private: true }) + '\n');
  const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
  run('npm', ['install', `code-server@${codeServerVersion}`, '--ignore-scripts', '--no-save', ...quiet], codeServerRoot);
  run('npm', ['install', '--omit=dev', '--ignore-scripts', ...quiet], vscodeServerDir);
  run('npm', ['rebuild', '@parcel/watcher', '@vscode/spdlog', 'kerberos', 'native-watchdog', '@vscode/deviceid'], vscodeServerDir);
  // node-pty's build script calls npx, which would otherwise stop to ask.
  run('npm', ['rebuild', 'node-pty'], vscodeServerDir, { npm_config_yes: 'true' });
  const rgDir = join(vscodeServerDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  mkdirSync(rgDir, { recursive: true });
  copyFileSync('/usr/bin/rg', join(rgDir, 'rg'));
  const asarLink = join(vscodeServerDir, 'node_modules.asar');
  rmSync(asarLink, { force: true });
  symlinkSync('node_modules', asarLink);
  run('npm', ['install', '--omit=dev', ...quiet], join(vscodeServerDir, 'extensions'));
  run('npm', ['rebuild', 'argon2'], codeServerPackageDir);
  writeFileSync(marker, new Date().toISOString() + '\n');
  const seconds = (Date.now() - started) / 1000;
  console.log(`code-server ${codeServerVersion} installed in ${seconds.toFixed(1)} s`);
  return { installed: true, seconds };
}
