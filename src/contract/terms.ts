import * as z from 'zod';
import type { FitOptions } from '../engine/model';
import { TRAINING_PARAMS } from '../engine/params';
import { rangeSchema } from './common';

const PairSchema = z.tuple([z.string().min(1), z.string().min(1)]).describe('two feature columns');

/** The terms of a train under the user's control (the fourth round's names). */
export const termFields = {
  interactions: z
    .union([rangeSchema(TRAINING_PARAMS.interactions.range), z.array(PairSchema)])
    .optional()
    .describe('how many pair terms the screen keeps (default 10), or a list of pairs [["a", "b"], …]: exactly those are fitted, unscreened'),
  exclude_interactions: z.array(PairSchema).optional().describe('pairs never fitted as pair terms'),
  feature_types: z
    .record(z.string(), z.union([z.enum(['categorical', 'numeric']), z.strictObject({ ordinal: z.array(z.string()).min(2) })]))
    .optional()
    .describe('columns read as another type: categorical (numeric codes), numeric (numbers stored as text), or ordinal with its categories in order (binned in that order)'),
  keep_columns: z
    .array(z.string().min(1))
    .optional()
    .describe('columns kept as features even when they look like identifiers (nearly one value per row, or free text), which are otherwise left out with a warning'),
};

/** The term fields of a checked train request. */
type TermFields = { [K in keyof typeof termFields]?: z.output<(typeof termFields)[K]> };

/** A train request's terms and column types as the fit options name them (absent: the defaults). */
export function termOptions(body: TermFields): Pick<FitOptions, 'interactions' | 'excludeInteractions' | 'featureTypes' | 'keepColumns'> {
  return {
    ...(body.interactions !== undefined ? { interactions: body.interactions } : {}),
    ...(body.exclude_interactions ? { excludeInteractions: body.exclude_interactions } : {}),
    ...(body.feature_types ? { featureTypes: body.feature_types } : {}),
    ...(body.keep_columns ? { keepColumns: body.keep_columns } : {}),
  };
}

/** The terms a version records among its parameters, as the request named them; none when none were given. */
export function termParameters(body: TermFields): Partial<TermFields> {
  return {
    ...(Array.isArray(body.interactions) ? { interactions: body.interactions } : {}),
    ...(body.exclude_interactions ? { exclude_interactions: body.exclude_interactions } : {}),
    ...(body.feature_types ? { feature_types: body.feature_types } : {}),
    ...(body.keep_columns ? { keep_columns: body.keep_columns } : {}),
  };
}
