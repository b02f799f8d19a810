import { sqlName } from '../../codeText/sql';
import type { DatasetSummary } from '../../contract/autotrain';
import type { SourceColumn, SourceTable } from '../../contract/connections';
import type { Dataset, RegisterConnectionDatasetRequest } from '../../contract/datasets';
import { MAX_CLASSES, type ColumnKind, type ColumnProfile, type CsvSample } from '../../common/csvColumns';
import { qualifiedTableName } from '../../tree/data/dataNodes';
import type { TrainingData } from '../train/trainFlow';

/**
 * How to register a table as a data set: the table itself, or, when some of its columns have a type no model can
 * use (which the service refuses), a query of the others. Both PostgreSQL and DuckDB quote names with "".
 */
export function tableDatasetRequest(connection: string, table: Pick<SourceTable, 'schema' | 'table'>, columns: readonly SourceColumn[]): RegisterConnectionDatasetRequest {
  const usable = columns.filter((column) => column.usable);
  if (usable.length === columns.length) return { name: table.table, source: { connection, table: qualifiedTableName(table) } };
  const query = `SELECT ${usable.map((column) => sqlName(column.name)).join(', ')} FROM ${sqlName(table.schema)}.${sqlName(table.table)}`;
  return { name: table.table, source: { connection, query } };
}

function kindOf(dtype: DatasetSummary['dtypes'][string], distinct: number, present: number): ColumnKind {
  if (present === 0) return 'empty';
  if (distinct === 2 || dtype === 'boolean') return 'binary';
  switch (dtype) {
    case 'number':
      return 'number';
    case 'date':
      return 'date';
    case 'category':
      return 'category';
    default:
      return distinct === present ? 'id' : 'text';
  }
}

/**
 * Column profiles from the service's summary of a data set, for the train flow's suggestions: what sampling a
 * local file gives, computed by the service over all the rows. Only a few values of each column are known, so a
 * multiclass column has a class count instead of its classes.
 */
export function sampleFromSummary(summary: DatasetSummary): CsvSample {
  const columns = summary.columns.map((name): ColumnProfile => {
    const properties = summary.fields.find((field) => field.column === name)?.properties;
    const missing = summary.missing_values[name] ?? 0;
    const distinct = properties?.num_unique_values ?? 0;
    const kind = kindOf(summary.dtypes[name] ?? 'string', distinct, summary.rows - missing);
    const multiclass = kind === 'category' && distinct >= 3 && distinct <= MAX_CLASSES;
    return { name, kind, distinct, missing, samples: (properties?.samples ?? []).map(String), ...(multiclass ? { classCount: distinct } : {}) };
  });
  return { columns, rowsSampled: summary.rows };
}

/** What the train flow needs for a data set registered from a table or query, from its summary. */
export function sourceTrainingData(dataset: Dataset, summary: DatasetSummary): TrainingData {
  const from = dataset.source?.table ?? dataset.name;
  return {
    label: dataset.source ? `${dataset.source.connection}: ${from}` : dataset.name,
    suggestedName: dataset.name,
    sample: sampleFromSummary(summary),
    rows: { dataset_id: dataset.dataset_id },
  };
}
