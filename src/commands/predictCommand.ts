import { open, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { XModelsClient } from '../client';
import { startsAsParquet } from '../client/upload';
import { buildPredictionsCsv, predictionsCsvText, predictionsFileName, type PredictionColumns } from '../common/predictionsCsv';
import { buildPredictionsParquet } from '../common/predictionsParquet';
import { parquetText, readParquetColumns } from '../common/parquetRows';
import type { XModelsServices } from '../common/services';
import { answered, type PickItem } from '../prompts/prompter';
import { DONE, runSteps, stepPosition, type Step } from '../prompts/steps';
import { csvPathFrom } from './csvFile';
import { asVersionRef, resolveVersion, type VersionRef } from './modelRefs';
import { underProgress } from './progress';
import { pickVersionSteps } from './versionPicker';

type OutputFormat = 'csv' | 'parquet';

/**
 * `xmodels.models.predict`: score a CSV or Parquet file with a version and write `<name>.predictions.csv` beside it; a
 * Parquet input is uploaded as a dataset (deleted afterwards) and writes `<name>.predictions.parquet`, or CSV when
 * the user picks it.
 */
export class PredictCommand {
  constructor(private readonly ctx: XModelsServices) {}

  async predict(arg?: unknown): Promise<vscode.Uri | undefined> {
    const client = await this.ctx.getClient();
    const fromVersion = asVersionRef(arg);
    const input = await csvPathFrom(fromVersion ? undefined : arg, this.ctx.prompter, vscode.l10n.t('Predict: choose the CSV to score'));
    if (input === undefined) return undefined;
    const title = vscode.l10n.t('Predict {0}', basename(input));
    const prompter = this.ctx.prompter;
    let ref: VersionRef | undefined = fromVersion;
    let explain = this.ctx.settings.current.predict.includeContributions;
    const parquet = await isParquet(input);
    let format: OutputFormat = parquet ? 'parquet' : 'csv';
    const total = (fromVersion ? 1 : 3) + (parquet ? 1 : 0);

    const formatStep: Step = async () => {
      const items: PickItem<OutputFormat>[] = [
        { value: 'parquet', label: vscode.l10n.t('Parquet'), description: predictionsFileName(basename(input), 'parquet') },
        { value: 'csv', label: vscode.l10n.t('CSV'), description: predictionsFileName(basename(input), 'csv') },
      ];
      const picked = await prompter.pickOne({ id: 'format', position: stepPosition(title, total, total), placeholder: vscode.l10n.t('Write the predictions as'), items });
      if (!answered(picked)) return picked;
      format = picked;
      return DONE;
    };
    const optionsStep: Step = async () => {
      const items: PickItem<boolean>[] = [
        { value: false, label: vscode.l10n.t('Predictions'), description: vscode.l10n.t('prediction and score/probability columns') },
        { value: true, label: vscode.l10n.t('Predictions and contributions'), description: vscode.l10n.t('also one contribution column per feature') },
      ];
      const step = fromVersion ? 1 : 3;
      const picked = await prompter.pickOne({ id: 'columns', position: stepPosition(title, step, total), placeholder: vscode.l10n.t('Columns to add'), items: items.map((item) => ({ ...item, picked: item.value === explain })) });
      if (!answered(picked)) return picked;
      explain = picked;
      return parquet ? formatStep : DONE;
    };
    const modelStep = pickVersionSteps(client, prompter, {
      title,
      total,
      placeholder: vscode.l10n.t('Model to predict with'),
      then: (picked) => {
        ref = picked;
        return optionsStep;
      },
    });
    if (!(await runSteps(fromVersion ? optionsStep : modelStep)) || !ref) return undefined;
    return this.run(client, ref, input, explain, parquet, format);
  }

  private async run(client: XModelsClient, ref: VersionRef, input: string, explain: boolean, parquet: boolean, format: OutputFormat): Promise<vscode.Uri> {
    const { model, version } = await resolveVersion(client, ref);
    const output = vscode.Uri.file(join(dirname(input), predictionsFileName(basename(input), format)));
    const threshold = this.ctx.settings.current.predict.threshold;
    await underProgress(
      vscode.l10n.t('Predicting {0} with {1} v{2}', basename(input), model.model_name, version.version_number),
      async (signal) => {
        let result;
        if (parquet) {
          const dataset = await client.datasets.upload({ file_path: input }, { signal });
          try {
            result = await client.models.predict(version.version_id, { dataset_id: dataset.dataset_id, explain, threshold }, { signal });
          } finally {
            await client.datasets.delete(dataset.dataset_id).catch((error: unknown) => this.ctx.log.warn(`Predict: the uploaded copy of ${basename(input)} was not deleted: ${String(error)}`));
          }
        } else {
          result = await client.models.predict(version.version_id, { csv_content: await readFile(input, 'utf8'), explain, threshold }, { signal });
        }
        for (const warning of result.warnings) this.ctx.log.warn(`Predict: ${warning}`);
        await writeFile(output.fsPath, await predictionsFile(input, parquet, format, result));
        if (result.warnings.length) void vscode.window.showWarningMessage(vscode.l10n.t('Predictions written with warnings: {0}', result.warnings.join(' ')));
      },
    );
    this.ctx.log.info(`Wrote ${output.fsPath}`);
    if (format === 'csv') await vscode.window.showTextDocument(output, { preview: false });
    else await vscode.commands.executeCommand('revealInExplorer', output);
    return output;
  }
}

async function isParquet(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return startsAsParquet(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** The predictions file's bytes: the input's columns and the prediction columns, as Parquet or CSV. */
async function predictionsFile(input: string, parquet: boolean, format: OutputFormat, result: PredictionColumns): Promise<Uint8Array | string> {
  if (format === 'parquet') return buildPredictionsParquet(input, result);
  if (!parquet) return buildPredictionsCsv(await readFile(input, 'utf8'), result);
  const { names, values, rows } = await readParquetColumns(input);
  return predictionsCsvText(names, Array.from({ length: rows }, (_, row) => values.map((column) => parquetText(column[row]))), result);
}
