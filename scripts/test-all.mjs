// `npm test`: builds, type-checks and lints, then runs the layers of tests in order (unit tests in Node, the service's
// tests again on PostgreSQL, tests inside a real VS Code extension host, UI tests in VS Code in Chromium, and UI tests
// of the packaged .vsix).
// Every layer runs even when an earlier one fails; the exit code is non-zero when any failed.
import { spawnSync } from 'node:child_process';
import { ensureDebianPackages } from './debianPackages.cjs';

// What the unit layers run besides Node: the generated visualization code (pandas, matplotlib, seaborn, plotly),
// scikit-learn (weighted metrics are checked against its own) and
// a private PostgreSQL cluster. The VS Code layers install theirs (chromium, ripgrep, node-gyp's make, g++ and python3,
// libkrb5-dev) with code-server.
ensureDebianPackages(['python3-pandas', 'python3-matplotlib', 'python3-seaborn', 'python3-plotly', 'python3-sklearn', 'postgresql']);

const steps = [
  ['build', ['npm', 'run', 'build']],
  ['lint', ['npm', 'run', 'lint']],
  ['unit', ['npm', 'run', 'test:unit']],
  ['service on PostgreSQL', ['npm', 'run', 'test:postgres']],
  ['extension host', ['npm', 'run', 'test:host']],
  ['ui', ['npm', 'run', 'test:ui']],
  ['packaged .vsix', ['node', 'scripts/test-packaged.mjs']],
];

const results = [];
for (const [name, [cmd, ...args]] of steps) {
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  results.push({ name, ok: r.status === 0, seconds: (Date.now() - started) / 1000 });
  if (name === 'build' && r.status !== 0) break;
}
console.log('\nTest layers:');
for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds.toFixed(1)} s)`);
process.exit(results.every((r) => r.ok) && results.length === steps.length ? 0 : 1);
