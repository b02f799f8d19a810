/**
 * Closed-loop HTTP load: `connections` clients each send GET `path` again as soon as the last answer arrived.
 * Uses wrk when it is on PATH (a C client, so the figures are the service's own); otherwise a Node client in this
 * process, whose own overhead is then part of every figure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
}

export interface LoadOptions {
  /** Service base URLs; connections are spread evenly over them. */
  urls: string[];
  path: string;
  apiKey: string;
  connections: number;
  seconds: number;
}

const wrkAvailable = spawnSync('wrk', ['--version']).error === undefined;

/** The Lua script wrk runs: one thread per URL (its connections go there), fails on a non-2xx answer. */
function wrkScript(urls: string[], apiKey: string): string {
  const targets = urls.map((u) => {
    const { hostname, port } = new URL(u);
    return `{ host = ${JSON.stringify(hostname)}, port = ${JSON.stringify(port)} }`;
  });
  return `
local targets = { ${targets.join(', ')} }
local started = 0
wrk.headers["api_key"] = ${JSON.stringify(apiKey)}

function setup(thread)
  started = started + 1
  local target = targets[((started - 1) % #targets) + 1]
  thread.addr = wrk.lookup(target.host, target.port)[1]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d %d\\n", summary.requests, summary.duration, latency:percentile(50),
    latency:percentile(99), e.connect + e.read + e.write + e.status + e.timeout))
end
`;
}

function runWrk(options: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'xmodels-wrk-'));
  const script = join(dir, 'load.lua');
  writeFileSync(script, wrkScript(options.urls, options.apiKey));
  const threads = options.urls.length;
  const args = ['-t', String(threads), '-c', String(options.connections), '-d', `${options.seconds}s`, '--timeout', '10s', '-s', script,
    `${options.urls[0]}${options.path}`];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', () => {
      rmSync(dir, { recursive: true, force: true });
      const match = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(out);
      if (!match) return reject(new Error(`wrk ${options.path}: ${out}`));
      const [requests, durationUs, p50Us, p99Us, errors] = match.slice(1).map(Number);
      if (errors > 0) return reject(new Error(`wrk ${options.path}: ${errors} failed or non-2xx answers of ${requests}`));
      resolve({ rps: requests / (durationUs / 1e6), p50: p50Us / 1000, p99: p99Us / 1000 });
    });
  });
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function runNode(options: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ connections: Math.ceil(options.connections / options.urls.length) });
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + options.seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: options.connections }, async (_, i) => {
        const url = `${options.urls[i % options.urls.length]}${options.path}`;
        while (performance.now() < until) {
          const t = performance.now();
          const res = await request(url, { dispatcher: agent, headers: { api_key: options.apiKey } });
          await res.body.dump();
          if (res.statusCode !== 200) throw new Error(`${options.path}: ${res.statusCode}`);
          latencies.push(performance.now() - t);
        }
      }),
    );
  } finally {
    await agent.close();
  }
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export function load(options: LoadOptions): Promise<LoadResult> {
  return wrkAvailable ? runWrk(options) : runNode(options);
}

export const loadClientNote = wrkAvailable
  ? 'client: wrk'
  : 'client: Node (undici) in this process - wrk is not on PATH, so these figures include the client\'s own overhead';
