import { ConnectInfoSchema, HealthSchema, LocalFeatureSchema, TeamSchema } from '../../contract';
import { z } from 'zod';
import type { ServiceContext } from '../http/context';
import { sendJson } from '../http/body';
import { ApiError } from '../base/errors';
import type { App } from '../http/types';

/** Also what a load balancer polls: 503 while the replica cannot reach its database. */
export function mountHealthRoutes(app: App, ctx: ServiceContext): void {
  app.get('/v1/health', async (c) => {
    try {
      await ctx.store.get('SELECT 1 AS ok');
    } catch (error) {
      ctx.logger.error('health check: the database did not answer', error);
      throw new ApiError(503, 'INTERNAL_ERROR', 'The service cannot reach its database.', 'Check that the database is up; the service log has the reason.');
    }
    return sendJson(c, HealthSchema, { status: 'ok', version: ctx.version, local: true, features: LocalFeatureSchema.options });
  });
}

export function mountTeamRoutes(app: App): void {
  app.get('/v1/client/connect', (c) => {
    const { identity, teamId } = c.get('session');
    const team = identity.teams.find((t) => t.team_id === teamId) ?? identity.teams[0];
    return sendJson(c, ConnectInfoSchema, {
      username: identity.username,
      team_id: team.team_id,
      team_name: team.team_name,
      teams: identity.teams,
      expires: null,
    });
  });
  app.get('/v1/teams', (c) => sendJson(c, z.array(TeamSchema), c.get('session').identity.teams));
}
