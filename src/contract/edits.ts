import * as z from 'zod';
import { EDIT_OPS, MISSING_BIN } from '../engine/model';
import { TimestampSchema } from './common';

const BinIndexSchema = z.number().int().nonnegative();

/** One hand edit of a version's steps (preview-edits and refit). */
export const EditSchema = z.strictObject({
  feature: z.string().min(1),
  op: z.enum(EDIT_OPS).describe(
    'shift: add value; set: to value; interpolate: linear from the step at first to the one at last; merge: one step, the count-weighted mean; monotone: weighted isotonic in direction; reset: back to the steps of the version edited; remove: the feature (boosted versions)',
  ),
  bins: z
    .union([z.tuple([BinIndexSchema, BinIndexSchema]), z.literal(MISSING_BIN)])
    .optional()
    .describe(
      '[first, last], both included, indexing the non-missing bins as the profile lists them; "missing" (shift, set, reset) the missing-value bin; omitted: every non-missing bin (reset: every bin)',
    ),
  value: z.number().optional().describe('shift: the number added; set: the new step'),
  direction: z.union([z.literal(1), z.literal(-1)]).optional().describe('monotone: 1 never decreasing, -1 never increasing'),
  class: z.string().optional().describe('multiclass: the class model edited (default every class)'),
  partition: z.string().optional().describe('the partition edited (default every partition; with bins, those must be the same in each)'),
});
export type Edit = z.infer<typeof EditSchema>;

/** An edit as a version records it: who applied it to the version's parent, and when. */
export const AppliedEditSchema = EditSchema.extend({ applied_at: TimestampSchema, applied_by: z.string() });
export type AppliedEdit = z.infer<typeof AppliedEditSchema>;
