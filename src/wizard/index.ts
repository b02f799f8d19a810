import * as vscode from 'vscode';
import type { QuickInputs } from '../common/multiStepInput';
import type { XModelsServices } from '../common/services';
import { QuickInputsPrompter } from './quickInputsPrompter';
import { WizardCommands } from './wizardCommands';

export type { WizardPrompter } from './prompter';
export type { WizardOptions } from './commandArgs';
export type { DatasetSummaryPayload, InsightsResult } from './wizardCommands';
export type { TrainedModel } from './trainingProgress';

/**
 * Registers the autotrain commands. Prompts go through `inputs` (by default the extension's shared prompts, which
 * tests can replace); any command also accepts a last argument `{prompter}` that answers its prompts instead.
 */
export function registerWizard(services: XModelsServices, inputs: QuickInputs = services.inputs): vscode.Disposable {
  const commands = new WizardCommands(services, new QuickInputsPrompter(inputs));
  return vscode.Disposable.from(
    services.registerCommand('xmodels.autotrain.start', (...args: unknown[]) => commands.start(args)),
    services.registerCommand('xmodels.autotrain.summarize', (...args: unknown[]) => commands.summarize(args)),
    services.registerCommand('xmodels.autotrain.visualizeGoal', (...args: unknown[]) => commands.visualizeGoal(args)),
    services.registerCommand('xmodels.autotrain.insights', (...args: unknown[]) => commands.insights(args)),
    services.registerCommand('xmodels.autotrain.trainWithLabel', (...args: unknown[]) => commands.trainWithLabel(args)),
    services.registerCommand('xmodels.preprocessors.createFromSteps', (...args: unknown[]) => commands.createFromSteps(args)),
  );
}
