// Runs every benchmark under test/bench in turn; each prints its figures with a ratio against a baseline
// measured in the same run. Pass a name filter to run a subset: `npm run bench -- engine`.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const filter = process.argv[2] ?? '';
const files = readdirSync('test/bench').filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `test/bench/${file}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
