import type { HttpBindings } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Session } from './context';

export interface AppEnv {
  Bindings: HttpBindings;
  Variables: { session: Session; requestWarnings?: string[] };
}

export type App = Hono<AppEnv>;
