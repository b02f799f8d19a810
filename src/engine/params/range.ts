/**
 * The valid values of a numeric parameter. Every layer that checks a parameter (the engine, the wire schema, the
 * extension's parameter editor, the refit form, the settings) derives its check and its wording from these.
 */
export interface ParamRange {
  min: number;
  /** Infinity when unbounded. */
  max: number;
  /** The bounds themselves are not allowed. */
  minOpen?: boolean;
  maxOpen?: boolean;
  integer?: boolean;
  /** Only these values (overrides min/max when present). */
  values?: readonly number[];
}

/** The range in words: "between 0 and 1", "a whole number of at least 0", "one of 1, 3, 5". */
export function describeRange(range: ParamRange): string {
  if (range.values) return `one of ${range.values.join(', ')}`;
  const kind = range.integer ? 'a whole number ' : '';
  if (range.max === Infinity) return `${kind}${range.minOpen ? 'greater than' : 'of at least'} ${range.min}`.trim();
  const low = range.minOpen ? `greater than ${range.min}` : `at least ${range.min}`;
  const high = range.maxOpen ? `less than ${range.max}` : `at most ${range.max}`;
  if (!range.minOpen && !range.maxOpen) return `${kind}between ${range.min} and ${range.max}`;
  return `${kind}${low} and ${high}`;
}

/** The problem with a value for a range ("must be …"), or null when it fits. */
export function rangeProblem(range: ParamRange, value: number): string | null {
  const fits = range.values
    ? range.values.includes(value)
    : (!range.integer || Number.isInteger(value)) &&
      (range.minOpen ? value > range.min : value >= range.min) &&
      (range.maxOpen ? value < range.max : value <= range.max);
  return fits ? null : `must be ${describeRange(range)}`;
}
