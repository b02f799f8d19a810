import { basename } from 'node:path';
import type { TrainModelParams } from '../../client';
import type { ModelInfo } from '../../contract';
import {
  classCountOf,
  classifierLabel,
  fewRowClasses,
  MAX_CLASSES,
  modelTypesFor,
  partitionCandidates,
  rankTargets,
  suggestDropColumns,
  suggestModelType,
  type ColumnProfile,
  type CsvSample,
  type ModelKind,
} from '../../common/csvColumns';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import type { Settings } from '../../common/settingsSchema';
import { defaultParams, specsForModel, trainRequestParams, type ParamValues } from '../../views/trainingParams';
import type { FitMethod } from '../../engine/params';
import { answered, BACK, type PickItem, type PromptPosition, type Prompter } from '../../prompts/prompter';
import { runSteps, stepPosition, type Step } from '../../prompts/steps';
import { modelTypeLabel } from '../../tree/nodeText';
import { editParameters } from '../parameterStep';

/** The rows a model is trained on: a local file the request uploads, or a dataset the service already holds. */
export interface TrainingData {
  /** What titles and the model's description name: the file name, or the table or query. */
  readonly label: string;
  /** The model name offered first. */
  readonly suggestedName: string;
  readonly sample: CsvSample;
  readonly rows: { readonly file_path: string } | { readonly dataset_id: string };
}

/** A local CSV or Parquet file and the sample of its first rows. */
export function fileTrainingData(path: string, sample: CsvSample): TrainingData {
  return { label: basename(path), suggestedName: basename(path).replace(/\.(csv|parquet)$/i, ''), sample, rows: { file_path: path } };
}

interface TrainPlan {
  data: TrainingData;
  target: string;
  /** The suggested target, listed first. */
  suggestedTarget: string;
  modelType: ModelKind;
  /** Whether the rows of classes too rare to train are left out; undefined until asked (only for a target with such classes). */
  dropRareClasses: boolean | undefined;
  partitionOn: string | undefined;
  drop: string[];
  name: string;
  /** The fit method (from settings, changeable in the parameter list) and its parameters, starting at the defaults. */
  method: FitMethod;
  params: Required<ParamValues>;
  defaults: Required<ParamValues>;
  /** Set when training a new version of an existing model. */
  modelId?: string;
  /** Set for a new model: its name is asked, and a name the team's models have offers a new version of that model. */
  teamModels?: TeamModels;
}

/** The models of the connected team, looked up once a name is given. */
export type TeamModels = () => Promise<readonly ModelInfo[]>;

/** What the train flow answers: the request, and the name of the model it trains (a new one's, or the existing one's). */
export interface TrainAnswer {
  readonly request: TrainModelParams;
  readonly modelName: string;
}

function kindText(kind: ColumnProfile['kind']): string {
  const texts: Record<ColumnProfile['kind'], string> = {
    binary: l10n.t('two values'),
    number: l10n.t('numeric'),
    category: l10n.t('categorical'),
    date: l10n.t('date'),
    text: l10n.t('text'),
    id: l10n.t('identifier'),
    empty: l10n.t('empty'),
  };
  return texts[kind];
}

function columnItem(column: ColumnProfile, suggested = false): PickItem<string> {
  const usable = modelTypesFor(column);
  return {
    value: column.name,
    label: suggested ? `$(star-full) ${column.name}` : column.name,
    description: [
      l10n.t('{0} · {1} distinct', kindText(column.kind), column.distinct),
      ...(column.missing ? [l10n.t('{0} missing', column.missing)] : []),
      ...(suggested ? [l10n.t('suggested')] : []),
    ].join(' · '),
    detail: usable.length
      ? l10n.t('e.g. {0}', column.samples.join(', '))
      : l10n.t('e.g. {0} — not usable as a target (needs 2 to {1} values, or numbers)', column.samples.join(', '), MAX_CLASSES),
  };
}

function newPlan(data: TrainingData, training: Settings['training'], preferredTarget: string | undefined): TrainPlan {
  const target = data.sample.columns.find((column) => column.name === preferredTarget) ?? rankTargets(data.sample.columns)[0];
  return {
    data,
    target: target.name,
    suggestedTarget: target.name,
    modelType: suggestModelType(target),
    dropRareClasses: undefined,
    partitionOn: undefined,
    drop: suggestDropColumns(data.sample.columns),
    name: data.suggestedName,
    method: training.method,
    params: defaultParams(training),
    defaults: defaultParams(training),
  };
}

function title(plan: TrainPlan): string {
  const from = plan.data.label;
  return plan.modelId ? l10n.t('New version of {0} from {1}', plan.name, from) : l10n.t('Train a model from {0}', from);
}

function targetStep(prompter: Prompter, plan: TrainPlan): Step {
  return async () => {
    const { columns } = plan.data.sample;
    const ranked = rankTargets(columns);
    const suggested = columns.find((column) => column.name === plan.suggestedTarget) ?? ranked[0];
    const ordered = [suggested, ...ranked.filter((column) => column !== suggested)];
    const items = ordered.map((column, index) => columnItem(column, index === 0));
    const current = items.find((item) => item.value === plan.target) ?? items[0];
    const picked = await prompter.pickOne({
      id: 'target',
      position: stepPosition(title(plan), 1, 6),
      placeholder: l10n.t('Target column: what should the model predict?'),
      items: items.map((item) => ({ ...item, picked: item === current })),
    });
    if (!answered(picked)) return picked;
    const column = columns.find((candidate) => candidate.name === picked);
    if (!column) throw new UserFacingError(l10n.t('Unknown column {0}.', String(picked)));
    if (column.name !== plan.target) plan.modelType = suggestModelType(column);
    plan.target = column.name;
    plan.drop = plan.drop.filter((name) => name !== column.name);
    return modelTypeStep(prompter, plan);
  };
}

function modelTypeStep(prompter: Prompter, plan: TrainPlan): Step {
  return async () => {
    const column = plan.data.sample.columns.find((candidate) => candidate.name === plan.target);
    const usable = column ? modelTypesFor(column) : [];
    const describe = (kind: ModelKind) =>
      usable.includes(kind)
        ? kind === usable[0]
          ? l10n.t('suggested')
          : l10n.t('possible')
        : kind === 'classifier'
          ? l10n.t('needs 2 to {0} categories ({1} has {2})', MAX_CLASSES, plan.target, String(column?.distinct))
          : l10n.t('needs numbers ({0} is {1})', plan.target, column ? kindText(column.kind) : l10n.t('unknown'));
    const items = (['classifier', 'regressor'] as const).map((kind): PickItem<ModelKind> => ({
      value: kind,
      label: kind === 'classifier' ? classifierLabel(column) : l10n.t('Regressor'),
      description: describe(kind),
      detail:
        kind === 'regressor'
          ? l10n.t('Predicts a number.')
          : column && classCountOf(column) !== undefined
            ? l10n.t('Predicts the most probable class, with a probability for every class (one model per class against the rest).')
            : l10n.t('Predicts one of two classes with a calibrated probability.'),
    }));
    const ordered = [...items].sort((a, b) => Number(b.value === plan.modelType) - Number(a.value === plan.modelType));
    const picked = await prompter.pickOne({
      id: 'modelType',
      position: stepPosition(title(plan), 2, 6),
      placeholder: l10n.t('Model type for {0}', plan.target),
      items: ordered.map((item, index) => ({ ...item, picked: index === 0 })),
    });
    if (!answered(picked)) return picked;
    plan.modelType = picked;
    const few = picked === 'classifier' ? fewRowClasses(column) : [];
    if (few.length === 0) plan.dropRareClasses = undefined;
    return few.length ? rareClassesStep(prompter, plan, few) : partitionStep(prompter, plan, 3, 6);
  };
}

const rowsText = (n: number) => (n === 1 ? l10n.t('1 row') : l10n.t('{0} rows', n));

/**
 * A multiclass target with classes of a few rows: the service refuses a class with fewer than 2 training rows, so
 * this asks whether to leave out the rows of such classes (rare_classes "drop") or keep every class.
 */
function rareClassesStep(prompter: Prompter, plan: TrainPlan, few: readonly { value: string; rows: number }[]): Step {
  return async () => {
    const listed = few.map((c) => l10n.t("'{0}' ({1})", c.value, rowsText(c.rows))).join(', ');
    const upTo = few.reduce((n, c) => n + c.rows, 0);
    const certain = few.filter((c) => c.rows < 2).reduce((n, c) => n + c.rows, 0);
    const items: PickItem<boolean>[] = [
      {
        value: true,
        label: certain === upTo ? l10n.t('Leave out {0}', rowsText(upTo)) : l10n.t('Leave out up to {0}', rowsText(upTo)),
        description: listed,
        detail: l10n.t('The rows of a class with fewer than 2 training rows are left out of training and testing, as if their {0} were missing.', plan.target),
      },
      {
        value: false,
        label: l10n.t('Keep every class'),
        detail: l10n.t('The train is refused if a class has fewer than 2 training rows; go Back to choose another target.'),
      },
    ];
    const picked = await prompter.pickOne({
      id: 'rareClasses',
      position: stepPosition(title(plan), 2, 6),
      placeholder: l10n.t('{0} has classes with few of the {1} rows read: {2}. Every class needs 2 training rows.', plan.target, plan.data.sample.rowsSampled, listed),
      items: items.map((item) => ({ ...item, picked: item.value === (plan.dropRareClasses ?? true) })),
    });
    if (!answered(picked)) return picked;
    plan.dropRareClasses = picked;
    return partitionStep(prompter, plan, 3, 6);
  };
}

function partitionStep(prompter: Prompter, plan: TrainPlan, step: number, totalSteps: number): Step {
  return async () => {
    const none: PickItem<string | null> = { value: null, label: l10n.t('No partitions'), description: l10n.t('one model for all rows') };
    const items = [none, ...partitionCandidates(plan.data.sample.columns, plan.target).map((column) => columnItem(column))];
    const current = items.find((item) => item.value === plan.partitionOn) ?? none;
    const picked = await prompter.pickOne({
      id: 'partition',
      position: stepPosition(title(plan), step, totalSteps),
      placeholder: l10n.t('Partition column (optional): one sub-model per value'),
      items: items.map((item) => ({ ...item, picked: item === current })),
    });
    if (!answered(picked)) return picked;
    plan.partitionOn = picked ?? undefined;
    return dropStep(prompter, plan, step + 1, totalSteps);
  };
}

function dropStep(prompter: Prompter, plan: TrainPlan, step: number, totalSteps: number): Step {
  return async () => {
    const items = plan.data.sample.columns
      .filter((column) => column.name !== plan.target && column.name !== plan.partitionOn)
      .map((column) => ({ ...columnItem(column), picked: plan.drop.includes(column.name) }));
    const picked = await prompter.pickMany({
      id: 'drop',
      position: stepPosition(title(plan), step, totalSteps),
      placeholder: l10n.t('Columns to leave out of the model (identifiers and free text are ticked)'),
      items,
    });
    if (!answered(picked)) return picked;
    plan.drop = picked;
    if (plan.drop.length >= items.length) throw new UserFacingError(l10n.t('At least one feature column must remain: untick some columns.'));
    return plan.teamModels ? nameStep(prompter, plan, plan.teamModels, step + 1, totalSteps) : paramsStep(prompter, plan, step + 1, totalSteps);
  };
}

function nameStep(prompter: Prompter, plan: TrainPlan, teamModels: TeamModels, step: number, totalSteps: number): Step {
  return async () => {
    plan.modelId = undefined;
    let models: readonly ModelInfo[] = [];
    const name = await prompter.input({
      id: 'name',
      position: stepPosition(title(plan), step, totalSteps),
      prompt: l10n.t('Model name'),
      value: plan.name,
      validate: (value) => (value.trim() ? undefined : l10n.t('Enter a name for the model.')),
      // The team's models are read while the box stays open and busy, so the wizard never vanishes between steps.
      check: async () => {
        try {
          models = await teamModels();
          return undefined;
        } catch (error) {
          return l10n.t("The team's models could not be read to check the name ({0}). Press Enter to try again.", error instanceof Error ? error.message : String(error));
        }
      },
    });
    if (!answered(name)) return name;
    plan.name = name.trim();
    const taken = models.find((model) => model.model_name === plan.name);
    return taken ? nameTakenStep(prompter, plan, taken, step, totalSteps) : paramsStep(prompter, plan, step + 1, totalSteps);
  };
}

/**
 * The name belongs to a model of the team: train a new version of it (the add-version path, when it predicts the
 * same target with the same model type, as a version must), or go back to the name.
 */
function nameTakenStep(prompter: Prompter, plan: TrainPlan, taken: ModelInfo, step: number, totalSteps: number): Step {
  return async () => {
    const kind = modelTypeLabel(taken.model_type);
    const fits = taken.target_name === plan.target && kind === plan.modelType;
    const items: PickItem<'version' | 'rename'>[] = [
      ...(fits
        ? [{
          value: 'version' as const,
          label: l10n.t('Add as a new version of {0}', taken.model_name),
          detail: l10n.t('Version {0} of the model, listed with its other versions', taken.number_of_versions + 1),
        }]
        : []),
      { value: 'rename', label: l10n.t('Choose another name'), detail: l10n.t('Train a separate model') },
    ];
    const picked = await prompter.pickOne({
      id: 'nameTaken',
      position: stepPosition(title(plan), step, totalSteps),
      placeholder: fits
        ? l10n.t('A model named {0} already exists in this team.', taken.model_name)
        : l10n.t('A model named {0} already exists in this team. It predicts {1} as a {2}, so this model cannot be a version of it: choose another name.', taken.model_name, taken.target_name, kind),
      items,
    });
    if (!answered(picked)) return picked;
    if (picked === 'rename') return BACK;
    plan.modelId = taken.model_id;
    return paramsStep(prompter, plan, step + 1, totalSteps);
  };
}

function paramsStep(prompter: Prompter, plan: TrainPlan, step: number, totalSteps: number): Step {
  return () => {
    const position: PromptPosition = stepPosition(`${title(plan)}: parameters`, step, totalSteps);
    return editParameters(prompter, position, (method) => specsForModel(plan.modelType, 'train', method), plan.params, l10n.t('Train with these parameters'), plan);
  };
}

function trainRequest(plan: TrainPlan): TrainModelParams {
  return {
    target_column: plan.target,
    model_type: plan.modelType,
    ...plan.data.rows,
    partition_on: plan.partitionOn,
    drop_columns: plan.drop.length ? plan.drop : undefined,
    ...(plan.dropRareClasses === true ? { rare_classes: 'drop' as const } : {}),
    method: plan.method,
    ...trainRequestParams(plan.method, plan.params, plan.defaults),
    ...(plan.modelId ? { model_id: plan.modelId } : { model_name: plan.name, model_description: l10n.t('Trained from {0}', plan.data.label) }),
  };
}

/**
 * A new model: target → model type (→ classes too rare to train, when the target has some) → partitions → dropped
 * columns → name → parameters, with Back. A name that a model of the team (`teamModels`) has offers to add a new
 * version of that model instead, or to choose another. Resolves to the training request, or undefined when the user
 * dismissed a prompt.
 */
export async function askNewModel(
  prompter: Prompter,
  data: TrainingData,
  training: Settings['training'],
  teamModels: TeamModels,
  preferredTarget?: string,
): Promise<TrainAnswer | undefined> {
  const plan: TrainPlan = { ...newPlan(data, training, preferredTarget), teamModels };
  return (await runSteps(targetStep(prompter, plan))) ? { request: trainRequest(plan), modelName: plan.name } : undefined;
}

/** A new version of `model`: same target and model type; partitions → dropped columns → parameters. */
export async function askNewVersion(prompter: Prompter, data: TrainingData, training: Settings['training'], model: ModelInfo): Promise<TrainModelParams | undefined> {
  if (!data.sample.columns.some((column) => column.name === model.target_name)) {
    throw new UserFacingError(l10n.t('{0} has no column {1}, the target of {2}.', data.label, model.target_name, model.model_name));
  }
  const plan: TrainPlan = {
    ...newPlan(data, training, model.target_name),
    target: model.target_name,
    modelType: modelTypeLabel(model.model_type),
    name: model.model_name,
    modelId: model.model_id,
    partitionOn: model.partition_on ?? undefined,
  };
  return (await runSteps(partitionStep(prompter, plan, 1, 3))) ? trainRequest(plan) : undefined;
}
