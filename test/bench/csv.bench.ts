// CSV parse speed: the engine's reader against csv-parse (with cast, so both produce numbers) on the same bytes in
// the same run, for the numeric upload of the data bench (400k × 12, three decimals), the same with every field
// quoted, full-precision doubles as String() writes them (17 significant digits), and flights-20k.csv repeated
// (dates, text and categories). The engine is bundled as the build bundles it, which is what the service runs (under
// tsx it is slower). Each reader runs once to warm up (the engine's first run is shown too), then the best of three
// runs is reported, by the wall clock and by CPU time (the machine is shared).
import * as esbuild from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { mulberry32 } from '../../src/engine';
import { FEATURES, numericCsv } from './numericCsv';

type Engine = typeof import('../../src/engine');
const ROOT = join(__dirname, '../..');

/** The engine as the service's workers run it: bundled and minified with the build's options. */
async function bundledEngine(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-csv-bench-'));
  try {
    const outfile = join(dir, 'engine.js');
    const { nodeBundle } = (await import(pathToFileURL(join(ROOT, 'scripts/nodeBundle.mjs')).href)) as { nodeBundle: esbuild.BuildOptions };
    await esbuild.build({ ...nodeBundle, entryPoints: [join(ROOT, 'src/engine/index.ts')], outfile, bundle: true, minify: true, legalComments: 'none', logLevel: 'error' });
    return (await import(pathToFileURL(outfile).href)) as Engine;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CHUNK = 1 << 20;
const RUNS = 3;

function preciseCsv(rows: number): Buffer {
  const random = mulberry32(3);
  const parts = [`${Array.from({ length: FEATURES }, (_, j) => `f${j}`).join(',')}\n`];
  for (let i = 0; i < rows; i++) parts.push(`${Array.from({ length: FEATURES }, () => String(random() * 100)).join(',')}\n`);
  return Buffer.from(parts.join(''));
}

/** The same file with every field in quotes, as some exporters write. */
function quoteEveryField(bytes: Buffer): Buffer {
  const lines = bytes.toString().trimEnd().split('\n');
  return Buffer.from(`${lines.map((line) => `"${line.split(',').join('","')}"`).join('\n')}\n`);
}

function repeatedFile(path: string, times: number): Buffer {
  const [header, ...rows] = readFileSync(path, 'utf8').trimEnd().split('\n');
  return Buffer.from(`${header}\n${Array.from({ length: times }, () => rows.join('\n')).join('\n')}\n`);
}

interface Timing {
  /** The first run's wall clock: what one upload to a fresh worker sees. */
  firstMs: number;
  wallMs: number;
  /** Time on the CPU (all of the process's threads): what a busy machine's other work does not inflate much. */
  cpuMs: number;
}

/** The fastest of RUNS runs (wall clock and CPU time each), after one to warm up. */
function best(run: () => unknown): Timing {
  const t0 = performance.now();
  run();
  const timing = { firstMs: performance.now() - t0, wallMs: Infinity, cpuMs: Infinity };
  for (let i = 0; i < RUNS; i++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    run();
    const wallMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    timing.wallMs = Math.min(timing.wallMs, wallMs);
    timing.cpuMs = Math.min(timing.cpuMs, (used.user + used.system) / 1000);
  }
  return timing;
}

function compare({ CsvFrameBuilder }: Engine, label: string, bytes: Buffer): void {
  const mb = bytes.length / 1e6;
  const engine = best(() => {
    const builder = new CsvFrameBuilder();
    for (let i = 0; i < bytes.length; i += CHUNK) builder.push(bytes.subarray(i, i + CHUNK));
    return builder.finish();
  });
  const baseline = best(() => parse(bytes, { cast: true }));
  const speed = (ms: number) => `${(mb / (ms / 1000)).toFixed(0)} MB/s`;
  console.log(
    `${label} (${mb.toFixed(0)} MB): engine ${speed(engine.wallMs)} (CPU time ${speed(engine.cpuMs)}, first run ${speed(engine.firstMs)}), csv-parse ${speed(baseline.wallMs)} (CPU time ${speed(baseline.cpuMs)}), ratio ${(baseline.wallMs / engine.wallMs).toFixed(1)}x`,
  );
}

async function main(): Promise<void> {
  const engine = await bundledEngine();
  console.log(`load average ${loadavg()[0].toFixed(2)} (one core per reader; target: engine ≥ 100 MB/s on numeric data when quiet)`);
  compare(engine, 'numeric 400k × 12, three decimals', numericCsv(400_000));
  compare(engine, 'numeric 200k × 12, every field quoted', quoteEveryField(numericCsv(200_000)));
  compare(engine, 'numeric 200k × 12, 17 significant digits', preciseCsv(200_000));
  compare(engine, 'flights-20k.csv × 20 (dates, text, categories)', repeatedFile(join(ROOT, 'media/datasets/flights-20k.csv'), 20));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
