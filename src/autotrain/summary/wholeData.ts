import type { SummaryField } from '../../contract/autotrain';
import type { SummaryRules } from './summary';
import { describeField } from './summary';

/** What a scan of every row tells of one column: its present values and, for a numeric column, their statistics. */
export interface WholeColumnFacts {
  nonNull: number;
  numbers?: { min: number; max: number; mean: number; std: number } | null;
}

/**
 * Summary rules computed on a sample of a dataset, with the row count, the missing values and the numeric
 * statistics of every row put in their place (types, samples and distinct counts stay the sample's).
 */
export function withWholeDataFacts(rules: SummaryRules, rows: number, facts: Readonly<Record<string, WholeColumnFacts>>): SummaryRules {
  const missing = { ...rules.missing_values };
  const fields = rules.fields.map((field): SummaryField => {
    const fact = facts[field.column];
    if (!fact) return field;
    missing[field.column] = rows - fact.nonNull;
    const properties = { ...field.properties };
    if (properties.dtype === 'number' && fact.numbers) Object.assign(properties, fact.numbers);
    properties.description = describeField(field.column, properties.dtype, properties, missing[field.column], undefined);
    return { ...field, properties };
  });
  return { ...rules, rows, missing_values: missing, fields, sample_rows: rules.rows };
}
