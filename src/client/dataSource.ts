import { invalidArgument } from './errors';

/**
 * Returns the one data source `params` names among `names`, or fails before any request when it names none or
 * several (an empty string counts as given, so it reaches the service's own check).
 */
export function exactlyOneSource<K extends string>(params: object, names: readonly K[], operation: string): K {
  const given = names.filter((name) => (params as Record<string, unknown>)[name] !== undefined && (params as Record<string, unknown>)[name] !== null);
  if (given.length === 1) return given[0];
  const list = `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  const got = given.length === 0 ? 'none was given' : `got ${given.join(' and ')}`;
  throw invalidArgument(`${operation} needs exactly one data source, ${list}: ${got}.`, given[1] ?? names[0]);
}
