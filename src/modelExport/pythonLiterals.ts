/** A float literal Python reads back as the same double (JavaScript's shortest round-trip form). */
export function pyNumber(value: number): string {
  if (Number.isNaN(value)) return 'math.nan';
  if (!Number.isFinite(value)) return value > 0 ? 'math.inf' : '-math.inf';
  const text = String(value);
  return /^-?\d+$/.test(text) ? `${text}.0` : text;
}

export const pyTuple = (items: string[]): string => (items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`);
