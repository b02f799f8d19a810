// How fast the service's limits answer, each against a baseline measured in the same run: a CSV header of more
// columns than a dataset may have is refused as the header is read (not after reading 3,000,000 columns), inline or
// uploaded; the autotrain rules over a summary of as many columns as a dataset may have answer in time proportional
// to the columns, not to their pairs; a revoked key fails within a second on a running service.
import { MAX_COLUMNS, parseCsv } from '../../src/engine';
import { smallCsv, wideSummary } from '../unit/service/fixtures';
import { client, removeDir, runCli, startService, storeArgs, type Call } from '../unit/service/harness';
import { median } from './httpLoad';

const RUNS = 5;

/** The median of RUNS runs of `run`, in milliseconds. */
async function timed(run: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  return median(times);
}

const line = (what: string, ms: number, baseline: string, baselineMs: number, target: string) =>
  console.log(`${what.padEnd(58)} ${ms.toFixed(1).padStart(8)} ms, ${baseline} ${baselineMs.toFixed(1)} ms, ratio ${(ms / baselineMs).toFixed(2)}x (${target})`);

function refusedCsvHeader(): Promise<number> {
  return timed(() => {
    try {
      parseCsv(','.repeat(3_000_000));
    } catch {
      return;
    }
    throw new Error('a header of 3,000,001 columns was read');
  });
}

async function csvHeader(): Promise<void> {
  const header = `${','.repeat(MAX_COLUMNS - 1)}\n`;
  line('engine: refuse a header of 3,000,001 columns', await refusedCsvHeader(), `read one of ${MAX_COLUMNS.toLocaleString('en')}`, await timed(() => parseCsv(header)), 'target < 2x');
}

async function expect(call: Call, status: number, ...args: Parameters<Call>): Promise<void> {
  const res = await call(...args);
  if (res.status !== status) throw new Error(`${args[0]} ${args[1]}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
}

async function serviceLimits(): Promise<void> {
  const service = await startService();
  const call = client(service.url, service.apiKey);
  try {
    const train = (csv: string, status: number) => expect(call, status, 'POST', '/v1/models/train', { json: { target_column: 'label', model_name: 'm', csv_content: csv } });
    const small = await timed(() => train(smallCsv(), 200));
    line('HTTP: 422 for an inline CSV of 3,000,001 columns', await timed(() => train(','.repeat(3_000_000), 422)), 'train a small CSV', small, 'target < 2x');
    const upload = await timed(() => expect(call, 422, 'POST', '/v1/datasets', { body: `${','.repeat(20_000)}\n1\n`, contentType: 'text/csv' }));
    line('HTTP: 422 for an upload of 20,001 columns', upload, 'train a small CSV', small, 'target < 1x');
    const rules = (n: number) =>
      timed(async () => {
        for (const path of ['generate_goals', 'generate_labels', 'generate_feature_engineering']) await expect(call, 200, 'POST', `/v1/autotrain/${path}`, { json: { team_id: null, req: { summary: wideSummary(n) } } });
      });
    const base = MAX_COLUMNS / 100;
    line(`HTTP: goals, labels and features over ${MAX_COLUMNS.toLocaleString('en')} columns`, await rules(MAX_COLUMNS), `over ${base}`, await rules(base), 'target < 200x: linear in the columns, not in their pairs');
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

async function keyRevocation(): Promise<void> {
  const service = await startService();
  try {
    const revocations: number[] = [];
    const lists: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const made = JSON.parse((await runCli(['keys', 'create', ...storeArgs(service), '--team', `short-lived-${i}`])).stdout) as { api_key: string };
      const temp = client(service.url, made.api_key);
      await expect(temp, 200, 'GET', '/v1/teams');
      const listStarted = performance.now();
      const listed = (await runCli(['keys', 'list', ...storeArgs(service)])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { key_id: string; teams: string[] });
      lists.push(performance.now() - listStarted);
      const keyId = listed.find((k) => k.teams.includes(`short-lived-${i}`))?.key_id ?? '';
      // The key stays in use while it is revoked, so the service's memory of it is as fresh as it can be.
      let failedAt = 0;
      const inUse = (async () => {
        while ((await temp('GET', '/v1/teams')).status === 200);
        failedAt = performance.now();
      })();
      const revoking = performance.now();
      await runCli(['keys', 'revoke', ...storeArgs(service), '--key-id', keyId]);
      await inUse;
      revocations.push(failedAt - revoking);
    }
    line('CLI and HTTP: a key in use fails, from the start of keys revoke', median(revocations), 'one keys list', median(lists), 'target: within 1,000 ms of the revoke');
  } finally {
    await service.stop();
    removeDir(service.dataDir);
  }
}

async function main(): Promise<void> {
  console.log(`median of ${RUNS} runs each`);
  await csvHeader();
  await serviceLimits();
  await keyRevocation();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
