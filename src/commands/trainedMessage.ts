import * as vscode from 'vscode';
import type { Metrics, TrainResult } from '../contract';
import { headlineMetric } from '../tree/nodeText';

/** A trained version as the message after its train tells of it. */
export interface TrainedVersion {
  model_id: string;
  version_id: string;
  test_metrics: Metrics | null;
  /** The rows its test metrics were computed on. */
  n_test: number;
  partitions?: TrainResult['partitions'];
  warnings?: string[];
}

/**
 * The message after every train, whichever way it ran (a file, a dataset's job, autotrain): the model's headline test
 * metric and its number of test rows, with the buttons of `offerPanels`.
 */
export function offerTrained(result: TrainedVersion, modelName: string, csv?: vscode.Uri): void {
  const metric = headlineMetric(result.test_metrics) ?? vscode.l10n.t('no test metric');
  offerPanels(vscode.l10n.t('Trained {0}: {1} on {2} test rows.', modelName, metric, result.n_test.toLocaleString('en')), result, modelName, csv);
}

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
  const autotrain = vscode.l10n.t('Autotrain this dataset');
  const actions = [...(warnings.length && csv ? [autotrain] : []), openProfile, ...(whole ? [openEvaluation] : [])];
  const shown = warnings.length
    ? vscode.window.showWarningMessage(`${message} ${warnings.join(' ')}`, ...actions)
    : vscode.window.showInformationMessage(message, ...actions);
  void shown.then((choice) => {
    if (choice === autotrain && csv) void vscode.commands.executeCommand('xmodels.autotrain.start', csv);
    if (choice === openProfile) void vscode.commands.executeCommand('xmodels.panels.profile', { versionId: result.version_id, modelId: result.model_id, modelName });
    if (choice === openEvaluation && whole) {
      void vscode.commands.executeCommand('xmodels.panels.evaluation', { partitionId: whole.partition_id, modelName, ...(csv ? { csvPath: csv.fsPath } : {}) });
    }
  });
}
