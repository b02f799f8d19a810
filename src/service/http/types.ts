import type { HttpBindings } from '@hono/node-server';
import type { Hono } from 'hono';
import type { KeyIdentity } from '../store/teams';

export interface Session {
  identity: KeyIdentity;
  /** The session team: the key's default team or the one named by the `team_id` header. */
  teamId: string;
}

export interface AppEnv {
  Bindings: HttpBindings;
  Variables: { session: Session };
}

export type App = Hono<AppEnv>;
