import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { XModelsClient } from '../client';
import { signalFromToken } from '../common/cancellation';
import { buildPredictionsCsv, predictionsFileName } from '../common/predictionsCsv';
import { runSteps, type Step } from '../common/multiStepInput';
import { UserFacingError } from '../common/errors';
import { shortDate, versionDescription } from '../tree/nodeText';
import { asVersionRef, resolveVersion, type CommandContext, type VersionRef } from './commandContext';
import { csvUriFrom, fileName } from './csvFile';

/** `xmodels.models.predict`: score a CSV with a version and write `<name>.predictions.csv` beside it. */
export class PredictCommand {
  constructor(private readonly ctx: CommandContext) {}

  async predict(arg?: unknown): Promise<vscode.Uri> {
    const client = await this.ctx.getClient();
    const fromVersion = asVersionRef(arg);
    const input = await csvUriFrom(fromVersion ? undefined : arg, this.ctx.inputs, vscode.l10n.t('Predict: choose the CSV to score'));
    let ref: VersionRef | undefined = fromVersion;
    let explain = this.ctx.settings.current.predict.includeContributions;

    const optionsStep: Step = async (inputs) => {
      const items = [
        { explain: false, label: vscode.l10n.t('Predictions'), description: vscode.l10n.t('prediction and score/probability columns') },
        { explain: true, label: vscode.l10n.t('Predictions and contributions'), description: vscode.l10n.t('also one contribution column per feature') },
      ];
      const picked = await inputs.pick({ title: vscode.l10n.t('Predict {0}', fileName(input)), step: fromVersion ? 1 : 3, totalSteps: fromVersion ? 1 : 3, placeholder: vscode.l10n.t('Columns to add'), items, selected: items.filter((item) => item.explain === explain) });
      explain = picked.explain;
    };
    const versionStep = (modelId: string): Step => async (inputs) => {
      const versions = [...(await client.models.listModelVersions(modelId))].sort((a, b) => b.version_number - a.version_number);
      const items = versions.map((version) => ({ version, label: `v${version.version_number}`, description: versionDescription(version) }));
      if (items.length === 0) throw new UserFacingError(vscode.l10n.t('This model has no versions to predict with.'));
      const picked = await inputs.pick({ title: vscode.l10n.t('Predict {0}', fileName(input)), step: 2, totalSteps: 3, placeholder: vscode.l10n.t('Version'), items, selected: [items[0]] });
      ref = { modelId, versionId: picked.version.version_id, version: picked.version };
      return optionsStep;
    };
    const modelStep: Step = async (inputs) => {
      const models = await client.models.listTeamModels();
      if (models.length === 0) throw new UserFacingError(vscode.l10n.t('There are no models yet: train one first.'));
      const items = models.map((model) => ({ model, label: model.model_name, description: `${model.target_name} · ${shortDate(model.created)}` }));
      const picked = await inputs.pick({ title: vscode.l10n.t('Predict {0}', fileName(input)), step: 1, totalSteps: 3, placeholder: vscode.l10n.t('Model to predict with'), items });
      return versionStep(picked.model.model_id);
    };
    await runSteps(this.ctx.inputs, fromVersion ? optionsStep : modelStep);
    if (!ref) throw new vscode.CancellationError();
    return this.run(client, ref, input, explain);
  }

  private async run(client: XModelsClient, ref: VersionRef, input: vscode.Uri, explain: boolean): Promise<vscode.Uri> {
    const { model, version } = await resolveVersion(client, ref);
    const csv = await readFile(input.fsPath, 'utf8');
    const output = vscode.Uri.file(join(dirname(input.fsPath), predictionsFileName(fileName(input))));
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Predicting {0} with {1} v{2}', fileName(input), model.model_name, version.version_number), cancellable: true },
      async (_progress, token) => {
        const result = await client.models.predict(
          version.version_id,
          { csv_content: csv, explain, threshold: this.ctx.settings.current.predict.threshold },
          { signal: signalFromToken(token) },
        );
        for (const warning of result.warnings) this.ctx.log.warn(`Predict: ${warning}`);
        await writeFile(output.fsPath, buildPredictionsCsv(csv, result), 'utf8');
        if (result.warnings.length) void vscode.window.showWarningMessage(vscode.l10n.t('Predictions written with warnings: {0}', result.warnings.join(' ')));
      },
    );
    this.ctx.log.info(`Wrote ${output.fsPath}`);
    await vscode.window.showTextDocument(output, { preview: false });
    return output;
  }
}
