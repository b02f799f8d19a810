import { l10n } from '../../l10n/l10n';
import { escapeMarkdown } from '../nodeText';
import type { ConnectionNode, SchemaNode, TableNode } from './dataNodes';

const kindNames = { postgres: 'PostgreSQL', duckdb: 'DuckDB' } as const;

/** `DuckDB · 3 tables`, or `PostgreSQL · unreachable` when the service could not count its tables. */
export function connectionDescription({ connection }: ConnectionNode): string {
  const tables =
    connection.tables === undefined ? l10n.t('unreachable') : connection.tables === 1 ? l10n.t('1 table') : l10n.t('{0} tables', connection.tables);
  return `${kindNames[connection.kind]} · ${tables}`;
}

export function connectionTooltip({ connection }: ConnectionNode): string {
  const origin = connection.origin === 'operator' ? l10n.t("defined by the service's operator") : l10n.t('added in VS Code (its URL is kept in the secret storage)');
  return `**${escapeMarkdown(connection.name)}**\n\n${kindNames[connection.kind]}, ${escapeMarkdown(origin)}`;
}

export function schemaDescription({ tables }: SchemaNode): string {
  return tables.length === 1 ? l10n.t('1 table') : l10n.t('{0} tables', tables.length);
}

/** `~12,345 rows` from the database's own estimate, or nothing when it keeps none. */
export function tableDescription({ table }: TableNode): string {
  return table.rows_estimate === undefined ? '' : l10n.t('~{0} rows', table.rows_estimate.toLocaleString('en-US'));
}
