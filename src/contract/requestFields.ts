import * as z from 'zod';

/**
 * Fields that clients of the reference service send and this service does not use. A request that may carry one
 * declares it with `ignoredFields`: it is accepted, ignored, and named in the response's `warnings` when the response
 * has them. Every other field a request schema does not know is a 422.
 */
export const IGNORED_FIELDS = {
  team_id: "the team is the API key's default team, or the one the team_id header names",
  run_id: 'this service does not track experiment runs',
  versions: 'this service keeps no version metadata of an uploaded model',
} as const;
export type IgnoredField = keyof typeof IGNORED_FIELDS;

/** One schema per ignored field, so that `ignoredFieldsOf` can tell them from fields of the same name that are read. */
const IGNORED_FIELD_SCHEMAS = Object.fromEntries(
  Object.entries(IGNORED_FIELDS).map(([name, why]) => [name, z.unknown().optional().describe(`Accepted and ignored: ${why}.`)]),
) as Record<IgnoredField, z.ZodOptional<z.ZodUnknown>>;

/** Schema fields of a request that accepts the named ignored fields (with any value). */
export function ignoredFields<K extends IgnoredField>(...names: K[]): { [P in K]: z.ZodOptional<z.ZodUnknown> } {
  return Object.fromEntries(names.map((name) => [name, IGNORED_FIELD_SCHEMAS[name]])) as { [P in K]: z.ZodOptional<z.ZodUnknown> };
}

/** The ignored fields a request schema accepts (at its top level). */
export function ignoredFieldsOf(schema: z.ZodType): IgnoredField[] {
  if (!(schema instanceof z.ZodObject)) return [];
  const shape = schema.shape as Record<string, z.ZodType>;
  return (Object.keys(IGNORED_FIELDS) as IgnoredField[]).filter((name) => shape[name] === IGNORED_FIELD_SCHEMAS[name]);
}

export const isIgnoredField = (name: string): name is IgnoredField => Object.hasOwn(IGNORED_FIELDS, name);

/** A name without case, `_` or `-`: `targetColumn` and `target_column` are the same word. */
const normalised = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/** Edit distance with adjacent swaps (optimal string alignment), rows of the table kept two at a time. */
function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2] + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/** Longer names than this are nobody's typo of a field name: they are not compared. */
const LONGEST_NAME = 64;

/**
 * The candidate `name` was most likely meant to be (a typo: a few letters off, or another case or separator), or
 * undefined when none is close: one edit in five letters (at least one), and fewer edits than either has letters.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > LONGEST_NAME) return undefined;
  const word = normalised(name);
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const other = normalised(candidate);
    const distance = editDistance(word, other);
    const allowed = Math.max(1, Math.floor(Math.max(word.length, other.length) / 5));
    if (distance <= allowed && distance < Math.min(word.length, other.length) && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}
