import * as z from 'zod';
import { describeRange, rangeProblem, type ParamRange } from '../engine/params';

/** A number within one of the engine's parameter ranges, with the engine's own wording (also in the OpenAPI text). */
export function rangeSchema(range: ParamRange) {
  return z.number().describe(describeRange(range)).superRefine((value, ctx) => {
    const problem = rangeProblem(range, value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** An opaque identifier (the local service uses UUIDs). */
export const IdSchema = z.string().min(1);

/** ISO 8601 timestamp in UTC. */
export const TimestampSchema = z.string();

/** A number that is null when it is not finite (NaN, ±Infinity never appear in JSON). */
export const NullableNumberSchema = z.number().nullable();

export const ErrorFieldSchema = z.object({ path: z.string(), message: z.string() });
export type ErrorField = z.infer<typeof ErrorFieldSchema>;

export const ErrorCodeSchema = z.enum([
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'VALIDATION_ERROR',
  'TOO_MANY_JOBS',
  'INTERNAL_ERROR',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ErrorBodySchema = z.object({
  detail: z.string(),
  error: z.object({
    code: ErrorCodeSchema,
    message: z.string(),
    suggestion: z.string().optional(),
    fields: z.array(ErrorFieldSchema).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Request model types (as the seed names them; the engine's ModelType). */
export const RequestModelTypeSchema = z.enum(['classifier', 'regressor']);
export type RequestModelType = z.infer<typeof RequestModelTypeSchema>;

/**
 * What a classifier train does with a class of a multiclass target (3 or more classes) that has fewer than 2 rows
 * among the training rows (or is only in the test rows): `error` refuses the train with a 422 naming the classes;
 * `drop` leaves out the rows of those classes from training and testing, as if their target were missing.
 */
export const RareClassesSchema = z
  .enum(['error', 'drop'])
  .describe('a class with fewer than 2 training rows: error (422 naming it) or drop (its rows are left out of training and testing)');
export type RareClasses = z.infer<typeof RareClassesSchema>;

/** Model types in everything the service returns (as the hosted service names them). */
export const WireModelTypeSchema = z.enum(['binary_classification', 'multiclass_classification', 'regression']);
export type WireModelType = z.infer<typeof WireModelTypeSchema>;
