import * as vscode from 'vscode';
import { isCancellation } from '../common/errors';
import type { XModelsServices } from '../common/services';
import { askEditsDataset } from '../flows/edits/editsDataset';
import type { SavedEdits, SaveEditsParams } from '../views/protocol';
import { resolveVersion } from './modelRefs';
import { underProgress } from './progress';

/**
 * "Save as new version" of the profile panel's hand edits: a refit with the edits, on the version's dataset (or, for a
 * version without one, rows the user picks), under a cancellable notification; the new version is then revealed in
 * the Models view.
 */
export class SaveEditsCommand {
  constructor(private readonly services: XModelsServices) {}

  async save({ versionId, modelId, edits }: SaveEditsParams): Promise<SavedEdits> {
    const client = await this.services.getClient();
    const { model, version } = await resolveVersion(client, { modelId, versionId });
    const title = vscode.l10n.t('Save the edits of {0} v{1} as a new version', model.model_name, version.version_number);
    const rows = version.dataset_id ? { datasetId: version.dataset_id } : await askEditsDataset(this.services.prompter, { title, target: model.target_name }, client.datasets.list());
    if (!rows) return { saved: false };
    try {
      const result = await underProgress(title, (signal) =>
        this.services.whileModelsBusy(`${title}…`, async () => {
          const datasetId = 'datasetId' in rows ? rows.datasetId : (await client.datasets.upload({ file_path: rows.filePath }, { signal })).dataset_id;
          return client.models.refitModel(versionId, { edits, dataset_id: datasetId, target_column: model.target_name }, { signal });
        }),
      );
      await this.services.revealModel(modelId, result.version_id);
      const versionNumber = (await client.models.listModelVersions(modelId)).find((v) => v.version_id === result.version_id)?.version_number;
      return { saved: true, versionId: result.version_id, ...(versionNumber !== undefined ? { versionNumber } : {}), testMetrics: result.test_metrics };
    } catch (error) {
      if (isCancellation(error)) return { saved: false };
      throw error;
    }
  }
}
