import { multiclassPython } from './multiclassPython';
import { multiclassSql } from './multiclassSql';
import { binaryPython } from './python';
import type { ExportTables } from './scoringTables';
import { binarySql, sqlTarget } from './sql';
import type { SqlDialectName } from './sqlDialect';

export { scoringTables, scoringTablesFromPayload } from './scoringTables';
export type { ScoringTables, MulticlassScoringTables, ExportTables } from './scoringTables';

/** A self-contained standard-library Python module that scores rows as the service does. */
export const toPython = (tables: ExportTables): string => (tables.modelType === 'multiclass' ? multiclassPython(tables) : binaryPython(tables));

export { SQL_DIALECTS, type SqlDialect, type SqlDialectName } from './sqlDialect';

/**
 * One query over `input_rows` that scores rows as the service does, in the dialect of SQLite (the default),
 * PostgreSQL or DuckDB; `numericColumns` names the columns known to have a numeric type.
 */
export function toSql(tables: ExportTables, dialect: SqlDialectName = 'sqlite', numericColumns: Iterable<string> = []): string {
  const target = sqlTarget(dialect, numericColumns);
  return tables.modelType === 'multiclass' ? multiclassSql(tables, target) : binarySql(tables, target);
}
