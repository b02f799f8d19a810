import * as vscode from 'vscode';
import { ErrorCodes, type AutotrainApi } from '../../client';
import { UserFacingError } from '../../common/errors';
import type { XModelsServices } from '../../common/services';
import type { AutotrainResponse, TrainingStatus } from '../../contract/autotrain';
import { ProgressTracker } from '../../flows/autotrain/progressTracker';
import { offerTrained, type TrainedVersion } from '../trainedMessage';

/** How often the job is polled while the notification is up. */
const POLL_INTERVAL_MS = 500;

export interface TrainedModel {
  readonly modelId: string;
  readonly versionId: string;
}

type JobClient = Pick<AutotrainApi, 'waitForTraining' | 'cancelTraining'>;

/**
 * Follows a job under a cancellable notification that shows its progress and current step. Cancel asks the service
 * to cancel the job; a job that ended in the meantime (409) is followed to its end.
 */
async function watchJob(
  autotrain: JobClient,
  started: AutotrainResponse,
  modelName: string,
  log: vscode.LogOutputChannel,
): Promise<TrainingStatus | undefined> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Training {0}', modelName), cancellable: true },
    async (progress, token) => {
      progress.report({ message: started.message });
      const tracker = new ProgressTracker();
      const stopWaiting = new AbortController();
      let cancelFailure: unknown;
      const cancelled = token.onCancellationRequested(() => {
        autotrain.cancelTraining(started.training_id).then(
          (status) => log.info(`Training ${started.training_id} cancelled (${status.status}).`),
          (error: { status?: number }) => {
            if (error.status === 409) return;
            cancelFailure = error;
            stopWaiting.abort();
          },
        );
      });
      try {
        return await autotrain.waitForTraining(started.training_id, {
          interval: POLL_INTERVAL_MS,
          signal: stopWaiting.signal,
          onProgress: (status) => progress.report(tracker.next(status)),
        });
      } catch (error) {
        if (cancelFailure) throw cancelFailure;
        if ((error as { code?: string }).code === ErrorCodes.trainingCancelled) return undefined;
        throw error;
      } finally {
        cancelled.dispose();
      }
    },
  );
}

/**
 * Follows a started job to its end; on success reveals the model and offers its profile (without waiting for the
 * answer). Resolves to the model, or undefined when the user cancelled the job.
 */
export async function followTraining(
  services: XModelsServices,
  autotrain: JobClient,
  started: AutotrainResponse,
  modelName: string,
): Promise<TrainedModel | undefined> {
  services.log.info(`Training ${started.training_id} started for ${modelName} (about ${started.estimated_time} s).`);
  const status = await watchJob(autotrain, started, modelName, services.log);
  if (!status) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Training of {0} was cancelled.', modelName));
    return undefined;
  }
  if (!status.model_id || !status.version_id) {
    throw new UserFacingError(vscode.l10n.t('Training {0} completed but the service named no model; refresh the model explorer to find {1}.', started.training_id, modelName));
  }
  const model = { modelId: status.model_id, versionId: status.version_id };
  await services.revealModel(model.modelId, model.versionId);
  offerTrained(await trainedVersion(services, model), modelName);
  return model;
}

/** What the service stored of a version a job trained: its test metrics and partitions. */
async function trainedVersion(services: XModelsServices, { modelId, versionId }: TrainedModel): Promise<TrainedVersion> {
  const client = await services.getClient();
  const [versions, { partitions }] = await Promise.all([client.models.listModelVersions(modelId), client.models.listModelVersionPartitions(versionId)]);
  const whole = partitions.find((partition) => partition.partition === '__dataset__');
  return {
    model_id: modelId,
    version_id: versionId,
    test_metrics: versions.find((version) => version.version_id === versionId)?.test_metrics ?? null,
    n_test: whole ? whole.n_test : partitions.reduce((sum, partition) => sum + partition.n_test, 0),
    partitions,
  };
}
