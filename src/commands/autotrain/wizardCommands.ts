import { resolve } from 'node:path';
import * as vscode from 'vscode';
import { UserFacingError } from '../../common/errors';
import type { XModelsServices } from '../../common/services';
import type { XModelsClient } from '../../client';
import type {
  DatasetSummary, Goal, Insights, Label, Recommendation, TextGenConfig,
} from '../../contract/autotrain';
import type { CreatePreprocessorResponse } from '../../contract/datasets';
import {
  fetchGoals, fetchLabels, fetchRecommendations, loadAutotrainData, summarizeCsv, summarizeDataset,
} from '../../flows/autotrain/autotrainData';
import { collectAutotrainChoices, rareClassesText } from '../../flows/autotrain/autotrainWizard';
import { csvPathOf, datasetRefOf, summaryGoalOf, summaryLabelOf, summaryStepsOf, wizardOptionsOf, type SummaryGoal } from '../../flows/autotrain/commandArgs';
import { renderInsightsMarkdown } from '../../flows/autotrain/insightsMarkdown';
import { defaultModelDescription, defaultModelName, fileBaseName, validateName } from '../../flows/autotrain/modelNaming';
import { goalItems } from '../../flows/autotrain/pickItems';
import { answered, type Prompter } from '../../prompts/prompter';
import { underProgress } from '../progress';
import { followTraining, type TrainedModel } from './trainingProgress';
import { planTraining, startTraining } from '../../flows/autotrain/trainingPlan';

/** What `xmodels.panels.datasetSummary` receives. */
export interface DatasetSummaryPayload {
  readonly summary: DatasetSummary;
  readonly goals: Goal[];
  readonly labels: Label[];
  readonly recommendations: Recommendation[];
  /** The local file summarized, so that chart code reads it wherever it is saved. */
  readonly dataPath?: string;
}

export interface InsightsResult {
  readonly insights: Insights;
  readonly document: vscode.TextDocument;
}

/** The data a command works on: a CSV or Parquet file, or a data set the service holds; `summarize` makes its summary. */
interface CommandData {
  readonly fileName: string;
  /** The local file's full path; none for a data set the service holds. */
  readonly dataPath?: string;
  summarize(client: XModelsClient, signal: AbortSignal, textgen: TextGenConfig): Promise<DatasetSummary>;
}

function isCancelledCall(error: unknown): boolean {
  return (error as { cancelled?: unknown }).cancelled === true;
}

/** The handlers of the autotrain commands; each takes the command's arguments, the last may carry a prompter. */
export class WizardCommands {
  constructor(private readonly services: XModelsServices) {}

  /** The multi-step wizard, then the job under a progress notification; resolves to the trained model. */
  async start(args: readonly unknown[]): Promise<TrainedModel | undefined> {
    const prompter = this.prompterOf(args);
    const data = await this.dataOf(args, vscode.l10n.t('Autotrain: choose a CSV file'));
    if (!data) return undefined;
    const connected = await this.connected(prompter);
    if (!connected) return undefined;
    const { client, textgen } = connected;
    const loading = new AbortController();
    let choices;
    try {
      const summarizing = data.summarize(client, loading.signal, textgen);
      choices = await collectAutotrainChoices(prompter, loadAutotrainData(client.autotrain, data.fileName, summarizing, loading.signal, this.warn, textgen));
    } finally {
      loading.abort();
    }
    if (!choices) return undefined;
    const plan = planTraining(choices, textgen);
    this.services.log.info(`Autotrain ${choices.modelName}: ${plan.kind === 'autotrain' ? 'start_autotrain' : 'preprocessor + train_manual'}.`);
    const started = await startTraining(client, plan);
    return followTraining(this.services, client.autotrain, started, choices.modelName);
  }

  /** Summary, goals, labels and recommendations of a CSV or a data set, shown in the dataset summary panel. */
  async summarize(args: readonly unknown[]): Promise<DatasetSummaryPayload | undefined> {
    const data = await this.dataOf(args, vscode.l10n.t('Summarize a CSV file'));
    if (!data) return undefined;
    const connected = await this.connected(this.prompterOf(args));
    if (!connected) return undefined;
    const { client, textgen } = connected;
    const payload = await this.underProgress(vscode.l10n.t('Summarizing {0}', fileBaseName(data.fileName)), async (report, signal) => {
      const summary = await data.summarize(client, signal, textgen);
      report(vscode.l10n.t('Suggesting goals, labels and feature engineering'));
      const [goals, labels, recommendations] = await Promise.all([
        fetchGoals(client.autotrain, summary, signal, this.warn, textgen),
        fetchLabels(client.autotrain, summary, signal, this.warn, textgen),
        fetchRecommendations(client.autotrain, summary, signal, this.warn, textgen),
      ]);
      return { summary, goals, labels, recommendations, ...(data.dataPath ? { dataPath: data.dataPath } : {}) };
    });
    if (payload) await vscode.commands.executeCommand('xmodels.panels.datasetSummary', payload);
    return payload;
  }

  async visualizeGoal(args: readonly unknown[]): Promise<SummaryGoal | undefined> {
    const target = await this.summaryAndGoal('xmodels.autotrain.visualizeGoal', args);
    if (target) await vscode.commands.executeCommand('xmodels.panels.visualization', target);
    return target;
  }

  /** Insights with their evidence numbers, opened as an untitled Markdown document. */
  async insights(args: readonly unknown[]): Promise<InsightsResult | undefined> {
    const target = await this.summaryAndGoal('xmodels.autotrain.insights', args);
    if (!target) return undefined;
    const connected = await this.connected(this.prompterOf(args));
    if (!connected) return undefined;
    const { client, textgen } = connected;
    const insights = await this.underProgress(vscode.l10n.t('Computing insights'), (_report, signal) =>
      client.autotrain.generateInsights({ summary: target.summary, goal: target.goal, textgen_config: textgen }, { signal }));
    if (!insights) return undefined;
    this.warn('insights', insights.warnings);
    const content = renderInsightsMarkdown(insights, target.summary.file_name);
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
    await vscode.window.showTextDocument(document, { preview: false });
    return { insights, document };
  }

  /**
   * Autotrain with the label chosen in the summary panel: a name prompt, then the job. A label with classes too rare
   * to train is trained without their rows, as its reasoning in the panel says and the prompt's title repeats.
   */
  async trainWithLabel(args: readonly unknown[]): Promise<TrainedModel | undefined> {
    const { summary, label } = summaryLabelOf('xmodels.autotrain.trainWithLabel', args[0]);
    const rare = label.rare_classes ?? [];
    const title = rare.length
      ? vscode.l10n.t('Autotrain: predict {0}, leaving out {1}', label.column, rareClassesText(rare))
      : vscode.l10n.t('Autotrain: predict {0}', label.column);
    const name = await this.askName(args, title, vscode.l10n.t('Model name'), defaultModelName(summary.file_name));
    if (name === undefined) return undefined;
    const connected = await this.connected(this.prompterOf(args));
    if (!connected) return undefined;
    const { client, textgen } = connected;
    const started = await client.autotrain.startAutotrain({
      model_name: name,
      model_description: defaultModelDescription(summary.file_name, label, []),
      summary,
      textgen_config: textgen,
      label: label.column,
      model_type: label.model_type,
      ...(rare.length ? { rare_classes: 'drop' as const } : {}),
    });
    return followTraining(this.services, client.autotrain, started, name);
  }

  /** A preprocessor from steps chosen in the summary panel, fitted on the summarized dataset. */
  async createFromSteps(args: readonly unknown[]): Promise<CreatePreprocessorResponse | undefined> {
    const { summary, steps } = summaryStepsOf('xmodels.preprocessors.createFromSteps', args[0]);
    if (!summary.dataset_id) {
      throw new UserFacingError(vscode.l10n.t('The summary of {0} has no dataset id, so no preprocessor can be fitted on it. Summarize the CSV with the local service and try again.', summary.file_name));
    }
    const name = await this.askName(args, vscode.l10n.t('Create a preprocessor'), vscode.l10n.t('Preprocessor name'), `${defaultModelName(summary.file_name)} preprocessing`);
    if (name === undefined) return undefined;
    const client = await this.services.getClient();
    const created = await client.preprocessors.create({
      name,
      description: vscode.l10n.t('{0} steps chosen from the summary of {1}.', steps.length, summary.file_name),
      dataset_id: summary.dataset_id,
      steps,
    });
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Preprocessor {0} created: preprocessor {1}, version {2}.', name, created.preprocessor_id, created.version_id),
    );
    return created;
  }

  /**
   * The client and the `textgen_config` every autotrain call sends, once the user said whether their text-generation
   * key may go to the hosted service (asked once per service); undefined when that question was dismissed.
   */
  private async connected(prompter: Prompter): Promise<{ client: XModelsClient; textgen: TextGenConfig } | undefined> {
    const client = await this.services.getClient();
    if (!(await this.services.askTextGenKeyConsent(prompter))) return undefined;
    return { client, textgen: await this.services.textGenConfig() };
  }

  /** The data set given as the first argument, else the CSV given or picked; undefined when the picker was dismissed. */
  private async dataOf(args: readonly unknown[], pickTitle: string): Promise<CommandData | undefined> {
    const dataset = datasetRefOf(args[0]);
    if (dataset) {
      return { fileName: dataset.name, summarize: (client, signal, textgen) => summarizeDataset(client.autotrain, dataset.dataset_id, signal, this.warn, textgen) };
    }
    const file = csvPathOf(args[0]) ?? (await this.prompterOf(args).pickCsvFile(pickTitle));
    if (file === undefined) return undefined;
    return { fileName: file, dataPath: resolve(file), summarize: (client, signal, textgen) => summarizeCsv(client.autotrain, file, signal, this.warn, textgen) };
  }

  private prompterOf(args: readonly unknown[]): Prompter {
    return wizardOptionsOf(args).prompter ?? this.services.prompter;
  }

  private async askName(args: readonly unknown[], title: string, prompt: string, value: string): Promise<string | undefined> {
    const answer = await this.prompterOf(args).input({
      id: 'name', position: { title, canGoBack: false }, prompt, value, validate: validateName,
    });
    return answered(answer) ? answer.trim() : undefined;
  }

  /** `{summary, goal}` from the arguments, or a CSV (argument or picker) summarized and a goal picked from it. */
  private async summaryAndGoal(command: string, args: readonly unknown[]): Promise<SummaryGoal | undefined> {
    const given = summaryGoalOf(command, args[0]);
    if (given) return given;
    const prompter = this.prompterOf(args);
    const data = await this.dataOf(args, vscode.l10n.t('Choose a CSV file'));
    if (!data) return undefined;
    const connected = await this.connected(prompter);
    if (!connected) return undefined;
    const { client, textgen } = connected;
    const loaded = await this.underProgress(vscode.l10n.t('Suggesting questions for {0}', fileBaseName(data.fileName)), async (_report, signal) => {
      const summary = await data.summarize(client, signal, textgen);
      return { summary, goals: await fetchGoals(client.autotrain, summary, signal, this.warn, textgen) };
    });
    if (!loaded) return undefined;
    const goal = await prompter.pickOne({
      id: 'goal', position: { title: fileBaseName(data.fileName), canGoBack: false },
      placeholder: vscode.l10n.t('Which question?'), items: goalItems(loaded.goals, undefined),
    });
    return answered(goal) ? { summary: loaded.summary, goal, ...(data.dataPath ? { dataPath: data.dataPath } : {}) } : undefined;
  }

  private readonly warn = (what: string, warnings: readonly string[]): void => {
    for (const warning of warnings) this.services.log.warn(`Autotrain ${what}: ${warning}`);
  };

  /** Runs a task under a cancellable notification; resolves undefined when the user cancelled it. */
  private async underProgress<T>(
    title: string,
    task: (report: (message: string) => void, signal: AbortSignal) => Promise<T>,
  ): Promise<T | undefined> {
    try {
      return await underProgress(title, (signal, report) => task(report, signal));
    } catch (error) {
      if (isCancelledCall(error)) return undefined;
      throw error;
    }
  }
}
