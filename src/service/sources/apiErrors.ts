import { ApiError, invalid } from '../base/errors';
import { SourceError } from './source';

/** How a failure names a named connection. */
export const connectionLabel = (name: string): string => `Connection ${name}`;

/**
 * A source's failure as the HTTP answer, naming the request `field` and where the rows are (a connection by its name,
 * never its URL): a missing table or column is a 404, an address the service does not connect to a 403, anything
 * else the caller can fix a 422. Other errors pass through.
 */
export function sourceApiError(error: unknown, field: string, where: string): unknown {
  if (!(error instanceof SourceError)) return error;
  const detail = `${where}: ${error.message}`;
  switch (error.failure) {
    case 'not-found':
      return new ApiError(404, 'NOT_FOUND', detail, 'Check the table or column names; GET /v1/connections/{name}/tables lists the tables.', [{ path: field, message: detail }]);
    case 'cancelled':
      return new ApiError(400, 'BAD_REQUEST', detail);
    case 'forbidden':
      return new ApiError(
        403,
        'FORBIDDEN',
        `${detail}: this service connects a connection added through the API to public addresses only.`,
        'Ask the operator to define the connection with serve --connection NAME=URL, or to allow its host with serve --connection-host HOST.',
        [{ path: field, message: detail }],
      );
    case 'connect':
    case 'missing-package':
    case 'query':
      return invalid(field, detail);
  }
}
