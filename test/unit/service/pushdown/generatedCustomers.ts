/**
 * Customers made by the database itself, in seconds even by the million: two numbers, a grade and a churn flag that
 * depends on them through a logistic link, with pseudo-random noise from the row number (no unseeded random()), so
 * PostgreSQL and DuckDB make the same rows. `series` names the row numbers (`generate_series(1, n)`, `range(1, n + 1)`).
 */
export function customersSql(series: string, extraColumns = 0): string {
  // Extra numbers the churn does not depend on, for tables as wide as users train on.
  const extra = Array.from({ length: extraColumns }, (_, k) => `, ${noise('i', [104729 + 7919 * k, 1000003])} * 100 AS e${k}`).join('');
  return `
  SELECT i AS id, CAST(i % 1000 AS DOUBLE PRECISION) / 10 AS x1, ${X2} AS x2, (ARRAY['a', 'b', 'c', 'd'])[1 + CAST(i % 4 AS INTEGER)] AS grade,
         CASE WHEN ((CAST(i % 1000 AS DOUBLE PRECISION) / 10 - 50) / 15 + 1.5 * ${X2}) / 3 + ln(${noise('i', NOISE_2)} / (1 - ${noise('i', NOISE_2)})) > 0 THEN 1 ELSE 0 END AS churned${extra}
  FROM ${series} AS t(i)`;
}

export const postgresSeries = (rows: number) => `generate_series(1, ${rows})`;
export const duckdbSeries = (rows: number) => `range(1, ${rows + 1})`;

/** Two multiplicative generators (multiplier, prime modulus) whose numbers tell nothing of each other. */
const NOISE_1 = [2654435761, 4294967291] as const;
const NOISE_2 = [48271, 2147483647] as const;

/** A number in (0, 1) from a row number, the same in PostgreSQL and DuckDB. */
function noise(i: string, [multiplier, modulus]: readonly [number, number] = NOISE_1): string {
  return `(CAST(CAST(${i} AS BIGINT) * ${multiplier} % ${modulus} AS DOUBLE PRECISION) + 0.5) / ${modulus}`;
}

/** x2 in [−2, 2] to two decimals: rounded, so that it does not tell the row number and with it the churn's noise. */
const X2 = `round(${noise('i')} * 400) / 100 - 2`;
