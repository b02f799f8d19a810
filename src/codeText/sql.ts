/** Any text as a standard SQL string literal (SQLite, PostgreSQL, DuckDB): in single quotes, a quote doubled. */
export const sqlString = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** Any name as a quoted SQL identifier (SQLite, PostgreSQL, DuckDB): in double quotes, a double quote doubled. */
export const sqlName = (name: string): string => `"${name.replace(/"/g, '""')}"`;
