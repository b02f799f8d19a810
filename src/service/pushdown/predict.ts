import type { PredictionsTable } from '../../contract';
import { exportTables, scoredColumns, toSql } from '../../modelExport';
import type { ServiceContext } from '../http/context';
import { datasetRelation } from '../datasets/datasetRelation';
import { sourceColumns } from '../datasets/sourceDataset';
import { conflict, invalid } from '../base/errors';
import { sourceApiError } from '../sources/apiErrors';
import { qualifiedName } from '../sources/dialect';
import { withoutTrailingSemicolon } from '../sources/readOnlyQuery';
import { subquery } from '../sources/relation';
import { findCurrentDataset } from '../datasets/fileDataset';
import type { VersionRecord } from '../store/models';
import { deserializeModel } from '../training/modelJson';

export interface PredictIntoTable {
  dataset_id?: string;
  output_table: string;
  replace: boolean;
  explain: boolean;
  threshold?: number;
}

/**
 * Predicts a dataset of a connection where its rows live: the source's engine runs the model's own SQL scoring
 * (the SQL export in its dialect) and writes every row with its predictions (and, with `explain`, the base value,
 * each feature's and pair term's contribution and the score) into a new table, by CREATE TABLE … AS SELECT. No row passes through
 * the service.
 */
export async function predictIntoTable(ctx: ServiceContext, teamId: string, version: VersionRecord, body: PredictIntoTable): Promise<PredictionsTable> {
  const dataset = body.dataset_id ? await findCurrentDataset(ctx, teamId, body.dataset_id, 'dataset_id') : null;
  const rows = dataset ? await datasetRelation(ctx, dataset, 'dataset_id') : null;
  if (!dataset || !rows?.datasetSource) {
    throw invalid('output_table', 'output_table writes the predictions into a table beside the rows, so it needs a dataset_id of a dataset registered from a connection.', 'Leave output_table out to get the predictions in the answer.');
  }
  if (version.trained_preprocessor_version_id || version.linked_preprocessor) {
    throw invalid('output_table', `Version ${version.version_id} has a preprocessor, which runs in the service, not in the source.`, 'Predict without output_table, or with a version that has no preprocessor.');
  }
  const { source, relation } = rows;
  const [schema, name] = body.output_table.includes('.') ? body.output_table.split('.') : [null, body.output_table];
  const table = qualifiedName(source.dialect, schema, name);
  try {
    const columns = await sourceColumns(source, relation, dataset, 'dataset_id');
    const tables = exportTables(deserializeModel(version.model_json), version.version_id);
    const numericColumns = columns.filter((c) => source.dialect.isNumeric(c.type)).map((c) => c.name);
    const scoring = toSql(tables, source.dialect.name, { numericColumns, from: subquery(relation), threshold: body.threshold });
    const outputs = scoredColumns(tables, body.explain);
    const clash = outputs.find((o) => columns.some((c) => c.name === o));
    if (clash) throw invalid('output_table', `The dataset has a column ${clash}, a name the predictions use.`, `Register a query that renames ${clash}.`);
    const select = [...columns.map((c) => c.name), ...outputs].map((c) => `q.${source.dialect.quoteIdentifier(c)}`).join(', ');
    const exists = (await source.tables()).some((t) => t.table === name && (schema === null || t.schema === schema));
    if (exists && !body.replace) {
      throw conflict(`The table ${body.output_table} exists already.`, 'Name a new table, or pass "replace": true to replace it.');
    }
    await source.write([...(exists ? [`DROP TABLE ${table}`] : []), `CREATE TABLE ${table} AS SELECT ${select} FROM ${subquery(withoutTrailingSemicolon(scoring))}`]);
    const [{ n }] = await source.query(`SELECT count(*) AS n FROM ${table}`);
    ctx.logger.info(`version ${version.version_id} predicted dataset ${dataset.dataset_id} into ${body.output_table} (${rows.where})`);
    return { version_id: version.version_id, n: Number(n), output_table: body.output_table, columns: [...columns.map((c) => c.name), ...outputs] };
  } catch (error) {
    throw sourceApiError(error, 'output_table', rows.where);
  }
}

