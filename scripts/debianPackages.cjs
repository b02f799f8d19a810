// Installs the Debian packages a command needs when they are missing: with apt-get when running as root, otherwise
// the error names the command to run. CommonJS, so both the ESM scripts and the CommonJS test libraries load it.
const { spawnSync } = require('node:child_process');

const isInstalled = (name) =>
  (spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' }).stdout ?? '').includes('install ok installed');

function aptGet(args) {
  const started = Date.now();
  console.log(`  $ apt-get ${args.join(' ')}`);
  const r = spawnSync('apt-get', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) {
    process.stderr.write(String(r.stdout) + String(r.stderr));
    throw new Error(`"apt-get ${args.join(' ')}" failed with exit code ${r.status ?? r.signal}`);
  }
  console.log(`    done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** @param {string[]} names Debian package names */
function ensureDebianPackages(names) {
  const missing = names.filter((name) => !isInstalled(name));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing Debian packages: ${missing.join(', ')}. Install them with: sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`);
  }
  aptGet(['update', '-qq']);
  aptGet(['install', '-y', '-qq', '--no-install-recommends', ...missing]);
}

exports.ensureDebianPackages = ensureDebianPackages;
