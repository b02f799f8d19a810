import * as vscode from 'vscode';
import type { RefitResult } from '../contract';
import { UserFacingError } from '../common/errors';
import type { XModelsServices } from '../common/services';
import { askRefit, refitTitle } from '../flows/refit/refitFlow';
import { headlineMetric } from '../tree/nodeText';
import { asVersionRef, requireRef, resolveVersion } from './modelRefs';
import { underProgress } from './progress';
import { offerPanels } from './trainedMessage';

/** `xmodels.models.refit`: new parameters for all or some features of a version, which creates a new version. */
export class RefitCommand {
  constructor(private readonly services: XModelsServices) {}

  async refit(arg?: unknown): Promise<RefitResult | undefined> {
    const ref = requireRef(asVersionRef(arg), 'model version');
    const client = await this.services.getClient();
    const { model, version } = await resolveVersion(client, ref);
    const datasetId = version.dataset_id;
    if (!datasetId) {
      throw new UserFacingError(vscode.l10n.t('v{0} of {1} has no stored dataset, so it cannot be refit. Train a new version from a CSV instead.', version.version_number, model.model_name));
    }
    const { features } = await client.models.getFeatureInfo(version.version_id);
    const subject = { model, version: { ...version, dataset_id: datasetId }, features };
    const asked = await askRefit(this.services.prompter, subject, this.services.settings.current.training);
    if (!asked) return undefined;

    const title = refitTitle(subject);
    this.services.log.info(`Refitting ${model.model_name} v${version.version_number} (${asked.scope})`);
    const result = await underProgress(title, (signal) =>
      this.services.whileModelsBusy(`${title}…`, () => client.models.refitModel(version.version_id, asked.request, { signal })));
    await this.services.revealModel(result.model_id, result.version_id);
    const before = headlineMetric(version.test_metrics);
    const after = headlineMetric(result.test_metrics) ?? 'no test metric';
    offerPanels(vscode.l10n.t('Refit {0}: {1}{2}.', model.model_name, after, before ? vscode.l10n.t(' (was {0})', before) : ''), result, model.model_name);
    return result;
  }
}
