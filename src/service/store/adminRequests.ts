import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from './sql';
import { createKey, findOrCreateTeam, listKeys, revokeKey } from './teams';

/**
 * While a service runs it holds the database exclusively (one connection, no per-statement locking), so the CLI's
 * key commands hand their request to it through files in `<data dir>/admin`: `<id>.request.json` in,
 * `<id>.answer.json` out. The data dir is private to its owner (mode 0700), the same trust as opening the database.
 */
export type AdminRequest =
  | { command: 'keys create'; team: string; username: string }
  | { command: 'keys list' }
  | { command: 'keys revoke'; keyId: string };
export type AdminAnswer = { ok: true; value: unknown } | { ok: false; error: string };

const POLL_MS = 100;
const adminDir = (dataDir: string) => join(dataDir, 'admin');

/** Writes the request and waits for the running service's answer (blocking: for the CLI only). */
export function submitAdminRequest(dataDir: string, request: AdminRequest, timeoutMs = 15_000): unknown {
  const dir = adminDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const id = randomUUID();
  const answerFile = join(dir, `${id}.answer.json`);
  writeFileSync(join(dir, `${id}.part`), JSON.stringify(request), { mode: 0o600 });
  renameSync(join(dir, `${id}.part`), join(dir, `${id}.request.json`));
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; Atomics.wait(sleeper, 0, 0, POLL_MS)) {
    if (!readdirSync(dir).includes(`${id}.answer.json`)) continue;
    const answer = JSON.parse(readFileSync(answerFile, 'utf8')) as AdminAnswer;
    rmSync(answerFile, { force: true });
    if (!answer.ok) throw new Error(answer.error);
    return answer.value;
  }
  rmSync(join(dir, `${id}.request.json`), { force: true });
  throw new Error(`The running service did not answer within ${timeoutMs / 1000} s.`);
}

/** Answers requests from the CLI with `handle` until the returned stop function is called (async, never blocks). */
export function serveAdminRequests(dataDir: string, handle: (request: AdminRequest) => Promise<unknown>): () => void {
  const dir = adminDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const tick = async () => {
    for (const file of (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.request.json'))) {
      const path = join(dir, file);
      const id = file.slice(0, -'.request.json'.length);
      let answer: AdminAnswer;
      try {
        const request = JSON.parse(await readFile(path, 'utf8')) as AdminRequest;
        answer = { ok: true, value: await handle(request) };
      } catch (error) {
        answer = { ok: false, error: (error as Error).message };
      }
      await rm(path, { force: true });
      await writeFile(join(dir, `${id}.answer.part`), JSON.stringify(answer), { mode: 0o600 });
      await rename(join(dir, `${id}.answer.part`), join(dir, `${id}.answer.json`));
    }
  };
  // An answer that cannot be written leaves the CLI to report its own timeout; the service keeps serving.
  const schedule = (delay: number) => {
    timer = setTimeout(() => {
      tick()
        .catch(() => undefined)
        .finally(() => {
          if (!stopped) schedule(POLL_MS);
        });
    }, delay);
  };
  schedule(0);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/** Carries out a key command on an open store: in the service for a request file, or in the CLI directly. */
export async function answerAdminRequest(db: Queryable, request: AdminRequest): Promise<unknown> {
  switch (request.command) {
    case 'keys create': {
      const team = await findOrCreateTeam(db, request.team);
      return { api_key: await createKey(db, team.team_id, request.username), team_id: team.team_id };
    }
    case 'keys list':
      return listKeys(db);
    case 'keys revoke':
      return revokeKey(db, request.keyId);
  }
  throw new Error(`Unknown admin command ${JSON.stringify((request as { command: unknown }).command)}.`);
}
