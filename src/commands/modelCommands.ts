import * as vscode from 'vscode';
import { UserFacingError } from '../common/errors';
import type { XModelsServices } from '../common/services';
import { asModelRef, requireRef } from './modelRefs';

/** Copy id and delete model. */
export class ModelCommands {
  constructor(private readonly ctx: XModelsServices) {}

  /** Copies the id of the node: partition, version or model id. */
  async copyId(arg?: unknown): Promise<string> {
    const ref = requireRef(asModelRef(arg), 'model, version or partition') as { modelId: string; versionId?: string; partitionId?: string };
    const id = ref.partitionId ?? ref.versionId ?? ref.modelId;
    await vscode.env.clipboard.writeText(id);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', id), 3000);
    return id;
  }

  /** Deletes a model with all its versions, after a modal confirmation. Resolves true when it was deleted. */
  async delete(arg?: unknown): Promise<boolean> {
    const ref = requireRef(asModelRef(arg), 'model');
    const client = await this.ctx.getClient();
    const model = ref.model ?? (await client.models.getModel(ref.modelId));
    const versions = `${model.number_of_versions} version${model.number_of_versions === 1 ? '' : 's'}`;
    const confirmed = await this.ctx.prompter.confirm({
      id: 'delete',
      message: vscode.l10n.t('Delete the model {0}?', model.model_name),
      detail: vscode.l10n.t('Its {0} and their partitions are deleted from the service. This cannot be undone.', versions),
      action: vscode.l10n.t('Delete'),
    });
    if (!confirmed) return false;
    try {
      await client.models.deleteModel(model.model_id);
    } catch (error) {
      if ((error as { status?: number }).status === 404 || (error as { status?: number }).status === 405) {
        throw new UserFacingError(vscode.l10n.t('This service cannot delete models ({0}).', (error as Error).message));
      }
      throw error;
    }
    this.ctx.log.info(`Deleted model ${model.model_name} (${model.model_id})`);
    this.ctx.refreshModels();
    return true;
  }
}
