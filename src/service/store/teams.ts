import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Team } from '../../contract';
import type { Queryable } from './sql';

export interface KeyIdentity {
  username: string;
  defaultTeamId: string;
  teams: Team[];
}

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** The team named `name`, created when there is none; `created` says which. */
export function findOrCreateTeam(db: Queryable, name: string): Promise<Team & { created: boolean }> {
  return db.transaction(async (tx) => {
    const existing = await tx.get('SELECT team_id, name FROM teams WHERE name = ?', [name]);
    if (existing) return { team_id: String(existing.team_id), team_name: String(existing.name), created: false };
    const team = { team_id: randomUUID(), team_name: name };
    await tx.run('INSERT INTO teams (team_id, name, created) VALUES (?, ?, ?)', [team.team_id, name, new Date().toISOString()]);
    return { ...team, created: true };
  });
}

/** Creates a key for the team; only its hash is stored, so the returned key is the only copy. */
export async function createKey(db: Queryable, teamId: string, username: string): Promise<string> {
  const key = `xm_${randomBytes(32).toString('base64url')}`;
  const hash = hashKey(key);
  await db.transaction(async (tx) => {
    await tx.run('INSERT INTO api_keys (key_hash, username, default_team_id, created) VALUES (?, ?, ?, ?)', [
      hash,
      username,
      teamId,
      new Date().toISOString(),
    ]);
    await tx.run('INSERT INTO key_teams (key_hash, team_id) VALUES (?, ?)', [hash, teamId]);
  });
  return key;
}

export async function identifyKey(db: Queryable, key: string): Promise<KeyIdentity | null> {
  const hash = hashKey(key);
  const row = await db.get('SELECT username, default_team_id FROM api_keys WHERE key_hash = ?', [hash]);
  if (!row) return null;
  const teams = (
    await db.all('SELECT t.team_id, t.name FROM key_teams k JOIN teams t ON t.team_id = k.team_id WHERE k.key_hash = ? ORDER BY t.name', [hash])
  ).map((t) => ({ team_id: String(t.team_id), team_name: String(t.name) }));
  return { username: String(row.username), defaultTeamId: String(row.default_team_id), teams };
}

export interface KeyListing {
  /** The first 12 hex digits of the key's hash: enough to name it, useless to use it. */
  key_id: string;
  username: string;
  teams: string[];
  created: string;
}

const KEY_ID_LENGTH = 12;

/** Every key, by its id (never the key itself), with its teams' names. */
export async function listKeys(db: Queryable): Promise<KeyListing[]> {
  const keys = await db.all('SELECT key_hash, username, created FROM api_keys ORDER BY created');
  const listings: KeyListing[] = [];
  for (const row of keys) {
    const teams = await db.all('SELECT t.name FROM key_teams k JOIN teams t ON t.team_id = k.team_id WHERE k.key_hash = ? ORDER BY t.name', [
      String(row.key_hash),
    ]);
    listings.push({
      key_id: String(row.key_hash).slice(0, KEY_ID_LENGTH),
      username: String(row.username),
      teams: teams.map((t) => String(t.name)),
      created: String(row.created),
    });
  }
  return listings;
}

/** Deletes the key whose id (a hash prefix of at least 8 hex digits) is given, unless none or several match. */
export async function revokeKey(db: Queryable, keyId: string): Promise<'revoked' | 'unknown' | 'ambiguous'> {
  if (!/^[0-9a-f]{8,64}$/.test(keyId)) return 'unknown';
  return db.transaction(async (tx) => {
    const rows = await tx.all('SELECT key_hash FROM api_keys WHERE key_hash LIKE ?', [`${keyId}%`]);
    if (rows.length === 0) return 'unknown';
    if (rows.length > 1) return 'ambiguous';
    await tx.run('DELETE FROM key_teams WHERE key_hash = ?', [String(rows[0].key_hash)]);
    await tx.run('DELETE FROM api_keys WHERE key_hash = ?', [String(rows[0].key_hash)]);
    return 'revoked';
  });
}
