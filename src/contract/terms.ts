import * as z from 'zod';
import { TRAINING_PARAMS } from '../engine/params/table';
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
