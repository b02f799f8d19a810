import { existsSync } from 'node:fs';
import { withWholeDataFacts, type SummaryRules, type WholeColumnFacts } from '../../autotrain';
import type { Dataset } from '../../contract';
import type { ServiceContext } from '../http/context';
import { invalid, notFound } from '../base/errors';
import { writeFiniteJsonFile } from '../base/json';
import { sampleShare, splitRelation } from '../sources/rowSplit';
import { sourceApiError } from '../sources/apiErrors';
import { subquery } from '../sources/relation';
import type { SourceColumnInfo } from '../sources/source';
import { datasetRelation, type DatasetRelation } from './datasetRelation';
import { ensureLocal, publish } from '../datasetFiles/fileCache';
import { framePath } from '../datasetFiles/frameFile';
import { healthPath } from '../datasetFiles/healthFile';
import { findCurrentDataset, samplePath } from './fileDataset';
import { requireDataset } from './register';
import { sourceColumns, storeRelationFrame } from './sourceDataset';
import { summaryPath } from '../datasetFiles/summaryFile';

/** Rows of the sample the autotrain rules read of a dataset larger than memory (at most the budget's): enough for types, levels and charts. */
const RULES_SAMPLE_ROWS = 100_000;

/** Samples being read, by path: concurrent first uses of a dataset share one read. */
const sampling = new Map<string, Promise<void>>();

/**
 * The team's dataset as the autotrain rules read it (summary, goals, labels, features, charts, insights, autotrain's
 * search): itself when its rows fit in memory; over the budget, a reproducible hash sample of its rows read where
 * they live and stored once beside it, whose summary has the row count, missing values and numeric statistics of a
 * scan of every row.
 */
export async function requireDatasetForRules(ctx: ServiceContext, teamId: string, datasetId: string, field: string, signal?: AbortSignal): Promise<Dataset & { path: string }> {
  const dataset = await findCurrentDataset(ctx, teamId, datasetId, field);
  if (!dataset) throw notFound('Dataset', datasetId).withField(field);
  const rows = dataset.rows > ctx.maxRowsInMemory ? await datasetRelation(ctx, dataset, field) : null;
  if (!rows) return requireDataset(ctx, teamId, datasetId, field);
  const path = samplePath(ctx.dataDir, dataset.dataset_id);
  await ensureLocal(ctx.store.files, path);
  if (!existsSync(summaryPath(path))) {
    let pending = sampling.get(path);
    if (!pending) {
      pending = storeSample(ctx, dataset, rows, path, field, signal).finally(() => sampling.delete(path));
      sampling.set(path, pending);
    }
    await pending;
  }
  return { ...dataset, path };
}

async function storeSample(ctx: ServiceContext, dataset: Dataset, rows: DatasetRelation, path: string, field: string, signal?: AbortSignal): Promise<void> {
  const { source, relation } = rows;
  try {
    const columns = await sourceColumns(source, relation, dataset, field, signal);
    const limit = Math.min(RULES_SAMPLE_ROWS, ctx.maxRowsInMemory);
    const split = { testSize: 0, seed: 0, trainSample: sampleShare(limit, dataset.rows), testSample: 0 };
    const sampled = await storeRelationFrame(ctx, source, {
      relation: splitRelation(source.dialect, relation, columns, split, 'train-sample'),
      columns,
      path,
      limit,
      tooMany: (n) => invalid(field, `The sample of dataset ${dataset.name} came to ${n} rows, more than ${limit}.`, 'Ask again.'),
      signal,
    });
    if (sampled === 0) throw invalid(field, `The source of dataset ${dataset.name} has no rows any more.`);
    const [rules, whole] = await Promise.all([ctx.trainer.summarize(path), wholeDataFacts(rows, columns, signal)]);
    writeFiniteJsonFile<SummaryRules>(summaryPath(path), withWholeDataFacts(rules, whole.rows, whole.facts));
    await publish(ctx.store.files, path, [framePath(path), healthPath(path), summaryPath(path)]);
    ctx.logger.info(`dataset ${dataset.dataset_id}: a sample of ${sampled} of its ${whole.rows} rows for the autotrain rules`);
  } catch (error) {
    throw sourceApiError(error, field, rows.where);
  }
}

/** One scan of every row: the count, each column's present values and a numeric column's statistics. */
async function wholeDataFacts(rows: DatasetRelation, columns: readonly SourceColumnInfo[], signal?: AbortSignal): Promise<{ rows: number; facts: Record<string, WholeColumnFacts> }> {
  const { dialect } = rows.source;
  const select = ['count(*) AS n'];
  columns.forEach((c, i) => {
    const column = `q.${dialect.quoteIdentifier(c.name)}`;
    if (!dialect.isNumeric(c.type)) {
      select.push(`count(NULLIF(${dialect.cast(column, 'text')}, '')) AS c${i}`);
      return;
    }
    const value = dialect.cast(column, 'double');
    select.push(`count(${column}) AS c${i}`, `min(${value}) AS min${i}`, `max(${value}) AS max${i}`, `avg(${value}) AS mean${i}`, `stddev_samp(${value}) AS std${i}`);
  });
  const [row] = await rows.source.query(`SELECT ${select.join(', ')} FROM ${subquery(rows.relation)}`, [], { signal });
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const facts: Record<string, WholeColumnFacts> = {};
  columns.forEach((c, i) => {
    const min = number(row[`min${i}`]);
    facts[c.name] = {
      nonNull: Number(row[`c${i}`]),
      numbers: min === null ? null : { min, max: number(row[`max${i}`]) as number, mean: number(row[`mean${i}`]) as number, std: number(row[`std${i}`]) ?? 0 },
    };
  });
  return { rows: Number(row.n), facts };
}
