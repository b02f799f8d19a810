import { randomUUID } from 'node:crypto';
import {
  TrainRequestSchema,
  type Dataset,
  type DatasetSummary,
  type RareClasses,
  type RequestModelType,
  type StartAutotrainBody,
  type TrainManualBody,
  type TrainRequestParsed,
} from '../../contract';
import {
  AUTOTRAIN_RECOMMENDATIONS,
  AUTOTRAIN_SPLIT,
  autotrainWork,
  canTrainTarget,
  generateFeatureEngineering,
  generateLabels,
  pickLabel,
  scarceClassesText,
  scarceRowsText,
  stepsFromRecommendations,
  targetModelType,
  type FitWork,
  type Rows,
} from '../../autotrain';
import type { ServiceContext, Session } from '../http/context';
import { datasetRows, loadSummaryRules, requireDataset } from '../datasets/register';
import { requireDatasetForRules } from '../datasets/datasetSample';
import { invalid, notFound } from '../base/errors';
import { trainModel } from './modeling';
import { findDataset } from '../store/datasets';
import { linkPreprocessor } from '../store/models';
import { findPreprocessorVersion, insertPreprocessor, insertPreprocessorVersion } from '../store/preprocessors';
import type { JobControls } from '../jobs/runner';
import { oneFit, ThroughputMeter, type EstimatedJob } from '../jobs/throughput';
import type { JobRecord } from '../jobs/store';

type Stored<T> = T & { username: string };

const throughput = new ThroughputMeter();

/**
 * A job's duration in seconds from the fits it makes and the speed measured on earlier jobs (the status then reports
 * real progress).
 */
export function estimateSeconds(kind: EstimatedJob, work: readonly FitWork[]): number {
  return throughput.estimate(kind, work);
}

function jobSession(job: JobRecord, username: string): Session {
  return { identity: { username, defaultTeamId: job.team_id, teams: [] }, teamId: job.team_id };
}

/**
 * Refuses, before queueing, a label the engine cannot train: a classifier on more than 50 classes, or, unless
 * `rareClasses` is "drop", on 3 or more classes one of which has under 2 rows among the job's training rows (`rows`,
 * read only then).
 */
export async function checkTrainableLabel(
  summary: DatasetSummary,
  label: string,
  modelType: RequestModelType | undefined,
  rareClasses: RareClasses,
  rows: () => Promise<Rows>,
): Promise<void> {
  const field = summary.fields.find((f) => f.column === label);
  if (!field) return;
  const type = modelType ?? targetModelType(field);
  const distinct = field.properties.num_unique_values;
  const check = canTrainTarget(type, distinct);
  if (!check.ok) {
    throw invalid('req.label', `label ${label} cannot be trained as a ${type}: ${check.reason}. Choose a column with 2 to 50 values, or a numeric column as a regressor.`);
  }
  if (type !== 'classifier' || distinct < 3 || rareClasses === 'drop') return;
  const scarce = (await (await rows()).answer({ rule: 'scarce-classes', columns: [label] }))[label] ?? [];
  if (scarce.length) {
    throw invalid(
      'req.label',
      `label ${label} cannot be trained as a classifier: its ${scarceClassesText(scarce)}. Send rare_classes: "drop" to leave out ${scarceRowsText(scarce)}, or choose another label.`,
    );
  }
}

/** A regression target is a numeric column with more than two distinct values (read from the cached summary). */
async function targetKind(ctx: ServiceContext, path: string, column: string): Promise<RequestModelType> {
  const { fields } = await loadSummaryRules(ctx, path);
  return targetModelType(fields.find((f) => f.column === column));
}

/** Checks a train_manual request (when queued, and again when it runs); resolves with the dataset it trains on. */
export async function resolveManualRequest(ctx: ServiceContext, teamId: string, req: TrainManualBody): Promise<Dataset & { path: string }> {
  const pre = await findPreprocessorVersion(ctx.store, teamId, req.version_id);
  if (!pre || pre.preprocessor_id !== req.preprocessor_id) {
    throw notFound('Preprocessor version', `${req.version_id} of preprocessor ${req.preprocessor_id}`).withField('req.version_id');
  }
  if (!pre.dataset_id) throw invalid('req.version_id', `Preprocessor version ${req.version_id} has no dataset to train on.`);
  const dataset = await requireDataset(ctx, teamId, pre.dataset_id, 'req.version_id');
  if (!dataset.columns.includes(req.label)) {
    throw invalid('req.label', `label ${req.label} is not a column of dataset ${dataset.name}; columns are: ${dataset.columns.join(', ')}.`);
  }
  return dataset;
}

async function runAutotrain(ctx: ServiceContext, job: JobRecord, controls: JobControls, apiKey: string | undefined): Promise<void> {
  const req = job.request as Stored<StartAutotrainBody> & { textgen_key_withheld?: boolean };
  const { signal } = controls;
  const started = Date.now();
  controls.progress(2, 'loading the dataset');
  const dataset = await requireDatasetForRules(ctx, job.team_id, req.summary.dataset_id as string, 'req.summary.dataset_id', signal);
  const source = { path: dataset.path, label: `Dataset ${dataset.name} (${dataset.dataset_id})` };
  if (req.textgen_key_withheld && !apiKey) {
    ctx.logger.info(
      `training ${job.training_id} runs without its text-generation key (keys are never stored: only the service it was submitted to had it, until that stopped); it uses the service's own key for its own endpoint, or the rules`,
    );
  }
  const textgen = ctx.llmEndpoints.context(apiKey ? { ...req.textgen_config, api_key: apiKey } : req.textgen_config, signal);

  controls.progress(5, 'choosing the label');
  // A label autotrain chose itself is trained without the rows of its classes too rare to train, unless told otherwise.
  const rareClasses = req.rare_classes ?? (req.label ? 'error' : 'drop');
  let label = req.label;
  let modelType = req.model_type;
  if (!label) {
    const rows = await datasetRows(ctx, dataset.path, signal);
    const best = pickLabel((await generateLabels(req.summary, textgen, rows)).labels);
    if (!best) throw new Error('No column of the dataset can be a label; give label explicitly.');
    label = best.column;
    modelType ??= best.model_type;
  }
  modelType ??= targetModelType(req.summary.fields.find((f) => f.column === label));

  controls.progress(10, 'engineering features');
  const recommendations = await generateFeatureEngineering(req.summary, AUTOTRAIN_RECOMMENDATIONS, textgen);
  const steps = stepsFromRecommendations(recommendations.recommendations, label);
  const fitted = steps.length ? await ctx.trainer.fitPreprocessor({ source, steps }, signal) : null;

  controls.progress(15, 'searching parameters');
  const search = await ctx.trainer.search(
    { source, target: label, modelType, dropColumns: [], preprocessor: fitted, seed: AUTOTRAIN_SPLIT.seed, testSize: AUTOTRAIN_SPLIT.test_size, rareClasses },
    (fraction) => controls.progress(15 + 70 * fraction, 'searching parameters'),
    signal,
  );

  controls.progress(88, 'training the final model');
  const preprocessor = fitted ? { preprocessor_id: randomUUID(), version_id: randomUUID() } : null;
  const body = TrainRequestSchema.parse({
    ...search.params,
    ...AUTOTRAIN_SPLIT,
    target_column: label,
    model_name: req.model_name,
    model_description: req.model_description,
    dataset_id: dataset.dataset_id,
    model_type: modelType,
    rare_classes: rareClasses,
  });
  await trainModel(ctx, jobSession(job, req.username), body, {
    source: 'autotrain',
    signal,
    preprocessor: preprocessor ? { version_id: preprocessor.version_id, fitted } : undefined,
    extraParameters: { search_metric: search.metric, search_score: search.score, search_improved: search.improved, search_trials: search.trials },
    commit: (write) =>
      controls.complete(async (tx) => {
        if (preprocessor) {
          await insertPreprocessor(tx, job.team_id, {
            preprocessor_id: preprocessor.preprocessor_id,
            name: `${req.model_name} features`,
            description: `Recommended steps for ${label}, chosen by autotrain.`,
          });
          await insertPreprocessorVersion(tx, { ...preprocessor, steps, fitted, dataset_id: dataset.dataset_id });
        }
        const written = await write(tx);
        if (preprocessor) await linkPreprocessor(tx, written.version_id, preprocessor.preprocessor_id, preprocessor.version_id);
        return written;
      }),
  });
  throughput.record('autotrain', autotrainWork(req.summary, label, modelType), (Date.now() - started) / 1000);
}

async function runManual(ctx: ServiceContext, job: JobRecord, controls: JobControls): Promise<void> {
  const req = job.request as Stored<TrainManualBody>;
  controls.progress(5, 'loading the preprocessor');
  const dataset = await resolveManualRequest(ctx, job.team_id, req);
  controls.progress(20, 'training');
  const body = TrainRequestSchema.parse({
    target_column: req.label,
    model_name: req.model_name,
    model_description: req.model_description,
    dataset_id: dataset.dataset_id,
    preprocessor_version_id: req.version_id,
    drop_columns: req.drop_columns,
    model_type: req.model_type ?? (await targetKind(ctx, dataset.path, req.label)),
    rare_classes: req.rare_classes,
    interactions: req.interactions,
    exclude_interactions: req.exclude_interactions,
    feature_types: req.feature_types,
    keep_columns: req.keep_columns,
  });
  const started = Date.now();
  await trainModel(ctx, jobSession(job, req.username), body, { source: 'train', signal: controls.signal, commit: controls.complete });
  throughput.record('manual', oneFit(dataset.rows, dataset.columns.length), (Date.now() - started) / 1000);
}

/** A train request run as a job: the same train as POST /v1/models/train, with its progress and Cancel. */
async function runTrainJob(ctx: ServiceContext, job: JobRecord, controls: JobControls): Promise<void> {
  const { username, ...stored } = job.request as Stored<TrainRequestParsed>;
  const body = TrainRequestSchema.parse(stored);
  const dataset = body.dataset_id ? await findDataset(ctx.store, job.team_id, body.dataset_id) : null;
  const started = Date.now();
  await trainModel(ctx, jobSession(job, username), body, { source: 'train', signal: controls.signal, commit: controls.complete, progress: controls.progress });
  if (dataset) throughput.record('train', oneFit(dataset.rows, dataset.columns.length), (Date.now() - started) / 1000);
}

export function registerExecutors(ctx: ServiceContext): void {
  ctx.jobs.register('train', (job, controls) => runTrainJob(ctx, job, controls));
  ctx.jobs.register('autotrain', (job, controls, secret) => runAutotrain(ctx, job, controls, secret));
  ctx.jobs.register('manual', (job, controls) => runManual(ctx, job, controls));
}
