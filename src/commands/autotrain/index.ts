import * as vscode from 'vscode';
import type { XModelsServices } from '../../common/services';
import { WizardCommands } from './wizardCommands';

export type { WizardOptions } from '../../flows/autotrain/commandArgs';
export type { DatasetSummaryPayload, InsightsResult } from './wizardCommands';
export type { TrainedModel } from './trainingProgress';

/**
 * Registers the autotrain commands. Prompts go through the services' prompter (which tests can replace); any command
 * also accepts a last argument `{prompter}` that answers its prompts instead.
 */
export function registerAutotrain(services: XModelsServices): vscode.Disposable {
  const commands = new WizardCommands(services);
  return vscode.Disposable.from(
    services.registerCommand('xmodels.autotrain.start', (...args: unknown[]) => commands.start(args)),
    services.registerCommand('xmodels.autotrain.summarize', (...args: unknown[]) => commands.summarize(args)),
    services.registerCommand('xmodels.autotrain.visualizeGoal', (...args: unknown[]) => commands.visualizeGoal(args)),
    services.registerCommand('xmodels.autotrain.insights', (...args: unknown[]) => commands.insights(args)),
    services.registerCommand('xmodels.autotrain.trainWithLabel', (...args: unknown[]) => commands.trainWithLabel(args)),
    services.registerCommand('xmodels.preprocessors.createFromSteps', (...args: unknown[]) => commands.createFromSteps(args)),
  );
}
