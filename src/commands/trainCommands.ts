import * as vscode from 'vscode';
import type { TrainModelParams } from '../client';
import type { Dataset, TrainResult } from '../contract';
import type { XModelsServices } from '../common/services';
import { summarizeDataset } from '../flows/autotrain/autotrainData';
import { sampleCsv } from '../flows/csvSample';
import { sourceTrainingData } from '../flows/data/sourceTraining';
import { askNewModel, askNewVersion, fileTrainingData, type TeamModels, type TrainingData } from '../flows/train/trainFlow';
import { csvPathFrom } from './csvFile';
import { asModelRef, requireRef, type ModelRef } from './modelRefs';
import { followTraining, type TrainedModel } from './autotrain/trainingProgress';
import { underProgress } from './progress';
import { offerTrained } from './trainedMessage';

/** Train a model from a CSV or a data set (new model or new version): the questions of the train flow, then the training. */
export class TrainCommands {
  constructor(private readonly services: XModelsServices) {}

  /** `xmodels.models.train`: from the Explorer (a CSV uri), the view title or the palette (asks for a file). */
  async train(arg?: unknown, preferredTarget?: string): Promise<TrainResult | undefined> {
    const csv = await this.csvFrom(arg, vscode.l10n.t('Train a model: choose a CSV file'));
    if (!csv) return undefined;
    const answer = await askNewModel(this.services.prompter, csv, this.services.settings.current.training, this.teamModels, preferredTarget);
    return answer && this.run(answer.request, answer.modelName, csv);
  }

  /**
   * A new model from a data set registered from a database table or query: its rows stay in the database, and the
   * flow's suggestions come from the service's summary of all of them.
   */
  async trainDataset(dataset: Dataset): Promise<TrainedModel | undefined> {
    const client = await this.services.getClient();
    const textgen = await this.services.textGenConfig();
    const summary = await underProgress(vscode.l10n.t('Reading the columns of {0}', dataset.name), (signal) =>
      summarizeDataset(client.autotrain, dataset.dataset_id, signal, (what, warnings) => warnings.forEach((warning) => this.services.log.warn(`Training ${what}: ${warning}`)), textgen),
    );
    const data = sourceTrainingData(dataset, summary);
    const answer = await askNewModel(this.services.prompter, data, this.services.settings.current.training, this.teamModels);
    if (!answer) return undefined;
    const { request, modelName } = answer;
    // A job rather than one long request: a table of millions of rows shows the progress of its scans, and Cancel
    // stops the statement running in the database.
    this.services.log.info(`Training ${modelName} on ${data.label}: target ${request.target_column}, ${request.model_type}`);
    const started = await client.models.startTraining({ ...request, dataset_id: dataset.dataset_id });
    return followTraining(this.services, client.autotrain, started, modelName);
  }

  /** `xmodels.models.trainVersion`: same target and model type as the model, data from a CSV. */
  async trainVersion(arg?: unknown): Promise<TrainResult | undefined> {
    const ref: ModelRef = requireRef(asModelRef(arg), 'model');
    const client = await this.services.getClient();
    const model = ref.model ?? (await client.models.getModel(ref.modelId));
    const csv = await this.csvFrom(undefined, vscode.l10n.t('New version of {0}: choose a CSV file', model.model_name));
    if (!csv) return undefined;
    const request = await askNewVersion(this.services.prompter, csv, this.services.settings.current.training, model);
    return request && this.run(request, model.model_name, csv);
  }

  /** `xmodels.walkthrough.trainSample`: the bundled penguins dataset, predicting body mass. */
  trainSample(): Promise<TrainResult | undefined> {
    return this.train(vscode.Uri.joinPath(this.services.extensionUri, 'media', 'datasets', 'penguins.csv'), 'Body Mass (g)');
  }

  /** The connected team's models, listed when the flow has a name to check. */
  private readonly teamModels: TeamModels = async () => (await this.services.getClient()).models.listTeamModels();

  private async csvFrom(arg: unknown, title: string): Promise<TrainingData | undefined> {
    const path = await csvPathFrom(arg, this.services.prompter, title);
    return path === undefined ? undefined : fileTrainingData(path, await sampleCsv(path));
  }

  private async run(request: TrainModelParams, name: string, data: TrainingData): Promise<TrainResult> {
    const client = await this.services.getClient();
    const csvPath = 'file_path' in data.rows ? data.rows.file_path : undefined;
    this.services.log.info(`Training ${name} on ${csvPath ?? data.label}: target ${request.target_column}, ${request.model_type}`);
    const result = await underProgress(vscode.l10n.t('Training {0}', name), (signal, report) => {
      const reading = client.filesInPlace ? vscode.l10n.t('reading {0} and training…', data.label) : vscode.l10n.t('uploading {0} and training…', data.label);
      report(csvPath ? reading : vscode.l10n.t('training on {0}…', data.label));
      return this.services.whileModelsBusy(vscode.l10n.t('Training {0}…', name), () => client.models.trainModel(request, { signal }));
    });
    this.services.log.info(`Trained ${name}: model ${result.model_id}, version ${result.version_id} in ${result.duration_ms} ms`);
    await this.services.revealModel(result.model_id, result.version_id);
    offerTrained(result, name, csvPath === undefined ? undefined : vscode.Uri.file(csvPath));
    return result;
  }
}
