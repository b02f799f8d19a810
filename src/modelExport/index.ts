import { multiclassPython } from './multiclassPython';
import { multiclassSql } from './multiclassSql';
import { binaryPython } from './python';
import type { ExportTables } from './scoringTables';
import { binarySql } from './sql';

export { scoringTables, scoringTablesFromPayload } from './scoringTables';
export type { ScoringTables, MulticlassScoringTables, ExportTables } from './scoringTables';

/** A self-contained standard-library Python module that scores rows as the service does. */
export const toPython = (tables: ExportTables): string => (tables.modelType === 'multiclass' ? multiclassPython(tables) : binaryPython(tables));

/** One SQLite query over `input_rows` that scores rows as the service does. */
export const toSql = (tables: ExportTables): string => (tables.modelType === 'multiclass' ? multiclassSql(tables) : binarySql(tables));
