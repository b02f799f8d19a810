import { ConnectInfoSchema, HealthSchema, LocalFeatureSchema, TeamSchema } from '../../contract';
import { z } from 'zod';
import type { ServiceContext } from '../context';
import { sendJson } from '../http/body';
import type { App } from '../http/types';


export function mountHealthRoutes(app: App, ctx: ServiceContext): void {
  app.get('/v1/health', (c) => sendJson(c, HealthSchema, { status: 'ok', version: ctx.version, local: true, features: LocalFeatureSchema.options }));
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
