export { scoringTables, scoringTablesFromPayload, type ScoringTables } from './scoringTables';
export { toPython } from './python';
export { toSql } from './sql';
