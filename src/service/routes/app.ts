import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { buildOpenApiDocument } from '../../contract';
import { ApiError, jsonBodyTooLarge } from '../base/errors';
import type { ServiceContext } from '../http/context';
import { isUnstorableText } from '../store/postgresErrors';
import { requireKey } from '../http/auth';
import { MAX_JSON_BODY_BYTES } from '../http/jsonLimits';
import type { AppEnv } from '../http/types';
import { mountAutotrainRoutes } from './autotrain';
import { mountConnectionRoutes } from './connections';
import { mountDatasetRoutes } from './datasets';
import { mountModelRoutes } from './models';
import { mountPreprocessorRoutes } from './preprocessors';
import { mountHealthRoutes, mountTeamRoutes } from './system';

/** The /v1 HTTP application. */
export function createApp(ctx: ServiceContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const openapi = buildOpenApiDocument(ctx.version);

  app.onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.toBody(), error.status as 400);
    if (isUnstorableText(error)) {
      const refused = new ApiError(422, 'VALIDATION_ERROR', 'A text of the request holds a NUL character (\\u0000), which the database cannot store.', 'Remove the NUL characters from names, ids and values.');
      return c.json(refused.toBody(), 422);
    }
    ctx.logger.error(`${c.req.method} ${c.req.path} failed`, error);
    const bug = new ApiError(500, 'INTERNAL_ERROR', 'The service failed unexpectedly; the error is in its log.', 'Retry; if it happens again, report the service log.');
    return c.json(bug.toBody(), 500);
  });
  app.notFound((c) =>
    c.json(new ApiError(404, 'NOT_FOUND', `There is no endpoint ${c.req.method} ${c.req.path}.`, 'See GET /v1/openapi.json for the endpoints.').toBody(), 404),
  );

  app.get('/v1/openapi.json', (c) => c.json(openapi));
  mountHealthRoutes(app, ctx);
  app.use('/v1/*', requireKey(ctx.store));
  // JSON bodies (csv_content included) share the upload limit, up to what one string can hold; uploads enforce it
  // while streaming to disk.
  const jsonLimitBytes = Math.min(ctx.uploadLimitBytes, MAX_JSON_BODY_BYTES);
  const jsonLimit = bodyLimit({ maxSize: jsonLimitBytes, onError: () => Promise.reject(jsonBodyTooLarge(jsonLimitBytes)) });
  app.use('/v1/*', (c, next) => (/json/i.test(c.req.header('content-type') ?? '') ? jsonLimit(c, next) : next()));
  mountTeamRoutes(app);
  mountDatasetRoutes(app, ctx);
  mountConnectionRoutes(app, ctx);
  mountPreprocessorRoutes(app, ctx);
  mountModelRoutes(app, ctx);
  mountAutotrainRoutes(app, ctx);
  return app;
}
