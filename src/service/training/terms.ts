import type { TrainRequestParsed } from '../../contract';
import type { TermOptions } from './tasks';

type TermFields = Pick<TrainRequestParsed, 'interactions' | 'exclude_interactions' | 'feature_types' | 'keep_columns'>;

/** A train request's terms and column types as the fit options name them. */
export function termOptions(body: TermFields): TermOptions {
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
