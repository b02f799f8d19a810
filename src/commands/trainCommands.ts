import * as vscode from 'vscode';
import type { TrainModelParams } from '../client';
import type { TrainResult } from '../contract';
import { signalFromToken } from '../common/cancellation';
import {
  classifierLabel,
  MAX_CLASSES,
  modelTypesFor,
  partitionCandidates,
  rankTargets,
  suggestDropColumns,
  suggestModelType,
  type ColumnProfile,
  type CsvSample,
  type ModelKind,
} from '../common/csvColumns';
import { UserFacingError } from '../common/errors';
import { runSteps, type Step } from '../common/multiStepInput';
import { defaultParams, specsForModel, trainRequestParams, type ParamValues } from '../common/trainingParams';
import type { FitMethod } from '../engine/params/table';
import { headlineMetric, modelTypeLabel } from '../tree/nodeText';
import { asModelRef, requireRef, type CommandContext, type ModelRef } from './commandContext';
import { csvUriFrom, fileName, sampleCsv } from './csvFile';
import { editParameters } from './parameterStep';

interface TrainPlan {
  file: vscode.Uri;
  sample: CsvSample;
  target: string;
  /** The suggested target, listed first. */
  suggestedTarget: string;
  modelType: ModelKind;
  partitionOn: string | undefined;
  drop: string[];
  name: string;
  /** The fit method (from settings, changeable in the parameter list) and its parameters, starting at the defaults. */
  method: FitMethod;
  params: Required<ParamValues>;
  defaults: Required<ParamValues>;
  /** Set when training a new version of an existing model. */
  modelId?: string;
}

interface ColumnItem extends vscode.QuickPickItem {
  column: string | undefined;
}

const kindText: Record<ColumnProfile['kind'], string> = {
  binary: 'two values',
  number: 'numeric',
  category: 'categorical',
  date: 'date',
  text: 'text',
  id: 'identifier',
  empty: 'empty',
};

function columnItem(column: ColumnProfile, suggested = false): ColumnItem {
  const usable = modelTypesFor(column);
  return {
    column: column.name,
    label: suggested ? `$(star-full) ${column.name}` : column.name,
    description: `${kindText[column.kind]} · ${column.distinct} distinct${column.missing ? ` · ${column.missing} missing` : ''}${suggested ? ' · suggested' : ''}`,
    detail: usable.length ? `e.g. ${column.samples.join(', ')}` : `e.g. ${column.samples.join(', ')} — not usable as a target (needs 2 to ${MAX_CLASSES} values, or numbers)`,
  };
}

/** Train a model from a CSV (new model or new version), as a multi-step QuickPick with Back. */
export class TrainCommands {
  constructor(private readonly ctx: CommandContext) {}

  /** `xmodels.models.train`: from the Explorer (a CSV uri), the view title or the palette (asks for a file). */
  async train(arg?: unknown, preferredTarget?: string): Promise<TrainResult> {
    const file = await csvUriFrom(arg, this.ctx.inputs, vscode.l10n.t('Train a model: choose a CSV file'));
    const plan = await this.newPlan(file, preferredTarget);
    await runSteps(this.ctx.inputs, (inputs) => this.targetStep(plan, inputs));
    return this.run(plan);
  }

  /** `xmodels.models.trainVersion`: same target and model type as the model, data from a CSV. */
  async trainVersion(arg?: unknown): Promise<TrainResult> {
    const ref: ModelRef = requireRef(asModelRef(arg), 'model');
    const client = await this.ctx.getClient();
    const model = ref.model ?? (await client.models.getModel(ref.modelId));
    const file = await csvUriFrom(undefined, this.ctx.inputs, vscode.l10n.t('New version of {0}: choose a CSV file', model.model_name));
    const plan = await this.newPlan(file, model.target_name);
    if (!plan.sample.columns.some((column) => column.name === model.target_name)) {
      throw new UserFacingError(vscode.l10n.t('{0} has no column {1}, the target of {2}.', fileName(file), model.target_name, model.model_name));
    }
    Object.assign(plan, { target: model.target_name, modelType: modelTypeLabel(model.model_type), name: model.model_name, modelId: model.model_id });
    plan.partitionOn = model.partition_on ?? undefined;
    await runSteps(this.ctx.inputs, (inputs) => this.partitionStep(plan, inputs, 1, 3));
    return this.run(plan);
  }

  /** `xmodels.walkthrough.trainSample`: the bundled penguins dataset, predicting body mass. */
  trainSample(): Promise<TrainResult> {
    return this.train(vscode.Uri.joinPath(this.ctx.extensionUri, 'media', 'datasets', 'penguins.csv'), 'Body Mass (g)');
  }

  private async newPlan(file: vscode.Uri, preferredTarget: string | undefined): Promise<TrainPlan> {
    const sample = await sampleCsv(file);
    const ranked = rankTargets(sample.columns);
    const target = sample.columns.find((column) => column.name === preferredTarget) ?? ranked[0];
    return {
      file,
      sample,
      target: target.name,
      suggestedTarget: target.name,
      modelType: suggestModelType(target),
      partitionOn: undefined,
      drop: suggestDropColumns(sample.columns),
      name: fileName(file).replace(/\.csv$/i, ''),
      method: this.ctx.settings.current.training.method,
      params: defaultParams(this.ctx.settings.current.training),
      defaults: defaultParams(this.ctx.settings.current.training),
    };
  }

  private title(plan: TrainPlan): string {
    return plan.modelId ? vscode.l10n.t('New version of {0} from {1}', plan.name, fileName(plan.file)) : vscode.l10n.t('Train a model from {0}', fileName(plan.file));
  }

  private async targetStep(plan: TrainPlan, inputs: CommandContext['inputs']): Promise<Step> {
    const ranked = rankTargets(plan.sample.columns);
    const suggested = plan.sample.columns.find((column) => column.name === plan.suggestedTarget) ?? ranked[0];
    const ordered = [suggested, ...ranked.filter((column) => column !== suggested)];
    const items = ordered.map((column, index) => columnItem(column, index === 0));
    const current = items.find((item) => item.column === plan.target) ?? items[0];
    const picked = await inputs.pick({
      title: this.title(plan),
      step: 1,
      totalSteps: 6,
      placeholder: vscode.l10n.t('Target column: what should the model predict?'),
      items,
      selected: [current],
    });
    const column = plan.sample.columns.find((candidate) => candidate.name === picked.column);
    if (!column) throw new UserFacingError(vscode.l10n.t('Unknown column {0}.', String(picked.column)));
    if (column.name !== plan.target) plan.modelType = suggestModelType(column);
    plan.target = column.name;
    plan.drop = plan.drop.filter((name) => name !== column.name);
    return (next) => this.modelTypeStep(plan, next);
  }

  private async modelTypeStep(plan: TrainPlan, inputs: CommandContext['inputs']): Promise<Step> {
    const column = plan.sample.columns.find((candidate) => candidate.name === plan.target);
    const usable = column ? modelTypesFor(column) : [];
    const describe = (kind: ModelKind) =>
      usable.includes(kind)
        ? kind === usable[0]
          ? 'suggested'
          : 'possible'
        : kind === 'classifier'
          ? `needs 2 to ${MAX_CLASSES} categories (${plan.target} has ${column?.distinct})`
          : `needs numbers (${plan.target} is ${column ? kindText[column.kind] : 'unknown'})`;
    const items = (['classifier', 'regressor'] as const).map((kind) => ({
      modelKind: kind,
      label: kind === 'classifier' ? classifierLabel(column) : 'Regressor',
      description: describe(kind),
      detail:
        kind === 'regressor'
          ? vscode.l10n.t('Predicts a number.')
          : column?.classes
            ? vscode.l10n.t('Predicts the most probable class, with a probability for every class (one model per class against the rest).')
            : vscode.l10n.t('Predicts one of two classes with a calibrated probability.'),
    }));
    const ordered = [...items].sort((a, b) => Number(b.modelKind === plan.modelType) - Number(a.modelKind === plan.modelType));
    const picked = await inputs.pick({ title: this.title(plan), step: 2, totalSteps: 6, placeholder: vscode.l10n.t('Model type for {0}', plan.target), items: ordered, selected: [ordered[0]] });
    plan.modelType = picked.modelKind;
    return (next) => this.partitionStep(plan, next, 3, 6);
  }

  private async partitionStep(plan: TrainPlan, inputs: CommandContext['inputs'], step: number, totalSteps: number): Promise<Step> {
    const none: ColumnItem = { column: undefined, label: vscode.l10n.t('No partitions'), description: vscode.l10n.t('one model for all rows') };
    const candidates = partitionCandidates(plan.sample.columns, plan.target).map((column) => columnItem(column));
    const items = [none, ...candidates];
    const current = items.find((item) => item.column === plan.partitionOn) ?? none;
    const picked = await inputs.pick({
      title: this.title(plan),
      step,
      totalSteps,
      placeholder: vscode.l10n.t('Partition column (optional): one sub-model per value'),
      items,
      selected: [current],
    });
    plan.partitionOn = picked.column;
    return (next) => this.dropStep(plan, next, step + 1, totalSteps);
  }

  private async dropStep(plan: TrainPlan, inputs: CommandContext['inputs'], step: number, totalSteps: number): Promise<Step> {
    const items = plan.sample.columns
      .filter((column) => column.name !== plan.target && column.name !== plan.partitionOn)
      .map((column) => columnItem(column));
    const picked = await inputs.pickMany({
      title: this.title(plan),
      step,
      totalSteps,
      placeholder: vscode.l10n.t('Columns to leave out of the model (identifiers and free text are ticked)'),
      items,
      selected: items.filter((item) => item.column && plan.drop.includes(item.column)),
    });
    plan.drop = picked.map((item) => item.column).filter((name): name is string => name !== undefined);
    if (plan.drop.length >= items.length) throw new UserFacingError(vscode.l10n.t('At least one feature column must remain: untick some columns.'));
    return plan.modelId ? (next) => this.paramsStep(plan, next, step + 1, totalSteps) : (next) => this.nameStep(plan, next, step + 1, totalSteps);
  }

  private async nameStep(plan: TrainPlan, inputs: CommandContext['inputs'], step: number, totalSteps: number): Promise<Step> {
    plan.name = (
      await inputs.input({
        title: this.title(plan),
        step,
        totalSteps,
        prompt: vscode.l10n.t('Model name'),
        value: plan.name,
        validate: (value) => (value.trim() ? undefined : vscode.l10n.t('Enter a name for the model.')),
      })
    ).trim();
    return (next) => this.paramsStep(plan, next, step + 1, totalSteps);
  }

  private async paramsStep(plan: TrainPlan, inputs: CommandContext['inputs'], step: number, totalSteps: number): Promise<void> {
    await editParameters(
      inputs,
      { title: `${this.title(plan)}: parameters`, step, totalSteps },
      (method) => specsForModel(plan.modelType, 'train', method),
      plan.params,
      vscode.l10n.t('Train with these parameters'),
      plan,
    );
  }

  private async run(plan: TrainPlan): Promise<TrainResult> {
    const client = await this.ctx.getClient();
    const request: TrainModelParams = {
      target_column: plan.target,
      model_type: plan.modelType,
      file_path: plan.file.fsPath,
      partition_on: plan.partitionOn,
      drop_columns: plan.drop.length ? plan.drop : undefined,
      method: plan.method,
      ...trainRequestParams(plan.method, plan.params, plan.defaults),
      ...(plan.modelId ? { model_id: plan.modelId } : { model_name: plan.name, model_description: vscode.l10n.t('Trained from {0}', fileName(plan.file)) }),
    };
    this.ctx.log.info(`Training ${plan.name} on ${plan.file.fsPath}: target ${plan.target}, ${plan.modelType}`);
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Training {0}', plan.name), cancellable: true },
      (progress, token) => {
        progress.report({ message: vscode.l10n.t('uploading {0} and training…', fileName(plan.file)) });
        return this.ctx.tree.whileBusy(vscode.l10n.t('Training {0}…', plan.name), () => client.models.trainModel(request, { signal: signalFromToken(token) }));
      },
    );
    this.ctx.log.info(`Trained ${plan.name}: model ${result.model_id}, version ${result.version_id} in ${result.duration_ms} ms`);
    await this.ctx.revealModel(result.model_id, result.version_id);
    offerPanels(vscode.l10n.t('Trained {0}: {1} on {2} test rows.', plan.name, headlineMetric(result.test_metrics) ?? 'no test metric', result.n_test), result, plan.name, plan.file);
    return result;
  }
}

const AUTOTRAIN = 'Autotrain this dataset';

/**
 * The message after training or refitting, with buttons that open the profile and the evaluation. When the service
 * warns that the model does not generalise (below a baseline, or overfitting), the message is a warning that says
 * so in its words and offers autotrain on the CSV the model came from.
 */
export function offerPanels(
  message: string,
  result: { model_id: string; version_id: string; partitions?: TrainResult['partitions']; warnings?: string[] },
  modelName: string,
  csv?: vscode.Uri,
): void {
  const whole = result.partitions?.find((partition) => partition.partition === '__dataset__') ?? result.partitions?.[0];
  const warnings = result.warnings ?? [];
  const openProfile = vscode.l10n.t('Open Profile');
  const openEvaluation = vscode.l10n.t('Open Evaluation');
  const actions = [...(warnings.length && csv ? [AUTOTRAIN] : []), openProfile, ...(whole ? [openEvaluation] : [])];
  const shown = warnings.length
    ? vscode.window.showWarningMessage(`${message} ${warnings.join(' ')}`, ...actions)
    : vscode.window.showInformationMessage(message, ...actions);
  void shown.then((choice) => {
    if (choice === AUTOTRAIN && csv) void vscode.commands.executeCommand('xmodels.autotrain.start', csv);
    if (choice === openProfile) void vscode.commands.executeCommand('xmodels.panels.profile', { versionId: result.version_id, modelId: result.model_id, modelName });
    if (choice === openEvaluation && whole) {
      void vscode.commands.executeCommand('xmodels.panels.evaluation', { partitionId: whole.partition_id, modelName, ...(csv ? { csvPath: csv.fsPath } : {}) });
    }
  });
}
