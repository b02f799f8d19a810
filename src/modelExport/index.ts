import { multiclassPython } from './multiclassPython';
import { multiclassSql } from './multiclassSql';
import { binaryPython } from './python';
import type { ExportTables } from './scoringTables';
import { binarySql, sqlTarget, type SqlTargetOptions } from './sql';
import type { SqlDialectName } from './sqlDialect';

export { exportTables, scoringTables, scoringTablesFromPayload } from './scoringTables';
export { scoredColumn, scoredColumns } from './scoredColumns';
export { firstMostProbable } from './multiclassSql';
export type { ScoringTables, MulticlassScoringTables, ExportTables } from './scoringTables';

/** A self-contained standard-library Python module that scores rows as the service does. */
export const toPython = (tables: ExportTables): string => (tables.modelType === 'multiclass' ? multiclassPython(tables) : binaryPython(tables));

export { SQL_DIALECTS, type SqlDialect, type SqlDialectName } from './sqlDialect';

/**
 * One query that scores rows as the service does, in the dialect of SQLite (the default), PostgreSQL or DuckDB, over
 * the table `input_rows` unless `from` names other rows; `numericColumns` names the columns known to have a numeric type.
 */
export function toSql(tables: ExportTables, dialect: SqlDialectName = 'sqlite', options: SqlTargetOptions = {}): string {
  const target = sqlTarget(dialect, options);
  return tables.modelType === 'multiclass' ? multiclassSql(tables, target) : binarySql(tables, target);
}
