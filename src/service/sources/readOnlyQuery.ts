/**
 * The text of a query with its string literals, quoted identifiers and comments blanked out (same length, so an
 * index in one is an index in the other), so that keywords and semicolons can be looked for; dollar-quoted strings
 * ($tag$…$tag$) count as literals.
 */
function codeOutsideLiterals(sql: string): string {
  let out = '';
  let i = 0;
  const skipTo = (end: string, from: number) => {
    const stop = sql.indexOf(end, from);
    const next = stop < 0 ? sql.length : stop + end.length;
    out += ' '.repeat(next - i);
    i = next;
  };
  while (i < sql.length) {
    const c = sql[i];
    const dollar = c === '$' ? /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i)) : null;
    if (c === "'" || c === '"') {
      // A doubled quote ends one quoted run and starts the next: both are skipped alike.
      skipTo(c, i + 1);
    } else if (c === '-' && sql[i + 1] === '-') skipTo('\n', i + 2);
    else if (c === '/' && sql[i + 1] === '*') skipTo('*/', i + 2);
    else if (dollar) skipTo(dollar[0], i + dollar[0].length);
    else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * Why `sql` is not one read-only query (null when it is): it must be a single `SELECT` or `WITH` statement. The
 * database enforces read-only access as well (a read-only transaction or database); this check gives the reason in
 * plain words before anything runs.
 */
export function readOnlyQueryProblem(sql: string): string | null {
  const code = codeOutsideLiterals(withoutTrailingSemicolon(sql)).trim();
  if (code === '') return 'The query is empty.';
  if (code.includes(';')) return 'The query holds more than one statement; give one SELECT or WITH statement.';
  if (!/^\(*\s*(select|with)\b/i.test(code)) {
    const first = /^[\s(]*([A-Za-z]+)/.exec(code)?.[1] ?? code.slice(0, 20);
    return `The query starts with ${first.toUpperCase()}; only a read-only SELECT or WITH statement can be a dataset.`;
  }
  return null;
}

/** The query without the semicolon that may end it (comments after it go too), so that it can be a subquery. */
export function withoutTrailingSemicolon(sql: string): string {
  const code = codeOutsideLiterals(sql);
  const end = code.trimEnd();
  return end.endsWith(';') ? sql.slice(0, end.length - 1) : sql;
}
