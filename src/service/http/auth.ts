import type { MiddlewareHandler } from 'hono';
import { forbidden, unauthorized } from '../errors';
import type { Store } from '../store/database';
import { identifyKey, type KeyIdentity } from '../store/teams';
import type { AppEnv, Session } from './types';

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

/**
 * Requires a known API key and resolves the session team. A key's teams never change once it exists, so known keys
 * are remembered; unknown ones are looked up every time (a key created by `keys create` works at once).
 */
export function requireKey(store: Store): MiddlewareHandler<AppEnv> {
  const known = new Map<string, KeyIdentity>();
  return async (c, next) => {
    const key = presentedKey((name) => c.req.header(name));
    if (!key) throw unauthorized('This request needs an API key.');
    const identity = known.get(key) ?? identifyKey(store, key);
    if (!identity) throw unauthorized('The API key is not known to this service.');
    if (known.size < 10_000) known.set(key, identity);
    const requested = c.req.header('team_id') ?? c.req.header('team-id');
    const session: Session = {
      identity,
      teamId: requested ? allowedTeam(identity, requested.trim()) : identity.defaultTeamId,
    };
    c.set('session', session);
    await next();
  };
}
