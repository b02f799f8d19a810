import type { MiddlewareHandler } from 'hono';
import { forbidden, unauthorized } from '../base/errors';
import type { Queryable } from '../store/sql';
import { identifyKey, type KeyIdentity } from '../store/teams';
import type { Session } from './context';
import type { AppEnv } from './types';

function presentedKey(header: (name: string) => string | undefined): string | null {
  const key = header('api_key') ?? header('api-key') ?? header('x-api-key');
  if (key) return key.trim();
  const auth = header('authorization');
  const match = auth ? /^Bearer\s+(.+)$/i.exec(auth.trim()) : null;
  return match ? match[1].trim() : null;
}

/** Checks that the key may use `teamId` (403 otherwise) and returns it. */
export function allowedTeam(identity: KeyIdentity, teamId: string): string {
  if (!identity.teams.some((t) => t.team_id === teamId)) throw forbidden(teamId);
  return teamId;
}

/** How long a looked-up key is trusted without asking the store again: a revoked key stops working within this. */
const KEY_CACHE_MS = 500;

/**
 * Requires a known API key and resolves the session team. Known keys are remembered for half a second, so a key
 * revoked with `keys revoke` fails within a second on every replica; unknown ones are looked up every time (a new key
 * works at once). Requests that arrive while a key is being looked up share that lookup.
 */
export function requireKey(db: Queryable): MiddlewareHandler<AppEnv> {
  const known = new Map<string, { identity: Promise<KeyIdentity | null>; until: number }>();
  const lookUp = (key: string, now: number) => {
    const identity = identifyKey(db, key);
    if (known.size >= 10_000) known.clear();
    const entry = { identity, until: now + KEY_CACHE_MS };
    known.set(key, entry);
    const forget = () => {
      if (known.get(key) === entry) known.delete(key);
    };
    identity.then((found) => found ?? forget(), forget);
    return identity;
  };
  return async (c, next) => {
    const key = presentedKey((name) => c.req.header(name));
    if (!key) throw unauthorized('This request needs an API key.');
    const now = Date.now();
    const cached = known.get(key);
    const identity = await (cached && cached.until > now ? cached.identity : lookUp(key, now));
    if (!identity) throw unauthorized('The API key is not known to this service.');
    const requested = c.req.header('team_id') ?? c.req.header('team-id');
    const session: Session = {
      identity,
      teamId: requested ? allowedTeam(identity, requested.trim()) : identity.defaultTeamId,
    };
    c.set('session', session);
    await next();
  };
}
