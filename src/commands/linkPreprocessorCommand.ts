import * as vscode from 'vscode';
import type { XModelsClient } from '../client';
import type { ModelInfo, ModelVersion } from '../contract';
import { signalFromToken } from '../common/cancellation';
import { UserFacingError } from '../common/errors';
import { runSteps, type QuickInputs, type Step } from '../common/multiStepInput';
import { shortDate } from '../tree/nodeText';
import { asVersionRef, requireRef, resolveVersion, type CommandContext } from './commandContext';
import { csvUriFrom, fileName, sampleCsv } from './csvFile';
import { askPreprocessorSteps, describeStep } from './preprocessorSteps';

interface Linked {
  preprocessorName: string;
  preprocessorVersionId: string;
  versionNumber: number;
}

/** `xmodels.models.linkPreprocessor`: link an existing preprocessor version to a model version, or create one. */
export class LinkPreprocessorCommand {
  constructor(private readonly ctx: CommandContext) {}

  async link(arg?: unknown): Promise<Linked> {
    const ref = requireRef(asVersionRef(arg), 'model version');
    const client = await this.ctx.getClient();
    const { model, version } = await resolveVersion(client, ref);
    const title = vscode.l10n.t('Link a preprocessor to {0} v{1}', model.model_name, version.version_number);
    const preprocessors = await client.preprocessors.list();
    let linked: Linked | undefined;

    const createStep: Step = async (inputs) => {
      linked = await this.create(client, inputs, title, model, version);
    };
    const versionStep = (preprocessorId: string, name: string): Step => async (inputs) => {
      const versions = [...(await client.preprocessors.listVersions(preprocessorId))].sort((a, b) => b.version_number - a.version_number);
      if (versions.length === 0) throw new UserFacingError(vscode.l10n.t('Preprocessor {0} has no versions yet.', name));
      const items = versions.map((v) => ({ versionId: v.version_id, number: v.version_number, label: `v${v.version_number}`, description: shortDate(v.created), detail: v.steps.map(describeStep).join(' → ') }));
      const picked = await inputs.pick({ title, step: 2, totalSteps: 2, placeholder: vscode.l10n.t('Version of {0}', name), items, selected: [items[0]] });
      linked = { preprocessorName: name, preprocessorVersionId: picked.versionId, versionNumber: picked.number };
    };
    const preprocessorStep: Step = async (inputs) => {
      const create = { preprocessorId: undefined, name: '', label: vscode.l10n.t('$(add) Create a preprocessor from a CSV…'), description: vscode.l10n.t('fit steps on a dataset') };
      const items = [
        create,
        ...preprocessors.map((p) => ({ preprocessorId: p.preprocessor_id, name: p.name, label: p.name, description: `${p.versions} version${p.versions === 1 ? '' : 's'}`, detail: p.description || undefined })),
      ];
      const picked = await inputs.pick({ title, step: 1, totalSteps: 2, placeholder: vscode.l10n.t('Preprocessor to link'), items, selected: [items[1] ?? create] });
      return picked.preprocessorId ? versionStep(picked.preprocessorId, picked.name) : createStep;
    };
    await runSteps(this.ctx.inputs, preprocessorStep);
    if (!linked) throw new vscode.CancellationError();

    await client.models.linkPreprocessor({ model_version_id: version.version_id, preprocessor_version_id: linked.preprocessorVersionId });
    this.ctx.log.info(`Linked preprocessor ${linked.preprocessorName} v${linked.versionNumber} to ${model.model_name} v${version.version_number}`);
    this.ctx.tree.refreshModel(model.model_id);
    await this.ctx.revealModel(model.model_id, version.version_id);
    void vscode.window.showInformationMessage(vscode.l10n.t('Linked {0} v{1} to {2} v{3}.', linked.preprocessorName, linked.versionNumber, model.model_name, version.version_number));
    return linked;
  }

  /** Fits a new preprocessor on a CSV: pick the file, name it, add steps; it is uploaded and created at the end. */
  private async create(client: XModelsClient, inputs: QuickInputs, title: string, model: ModelInfo, version: ModelVersion): Promise<Linked> {
    const file = await csvUriFrom(undefined, inputs, vscode.l10n.t('Preprocessor: choose the CSV to fit its steps on'));
    const sample = await sampleCsv(file);
    const name = (
      await inputs.input({ title, step: 2, totalSteps: 3, prompt: vscode.l10n.t('Preprocessor name'), value: `${model.model_name} preprocessing`, validate: (value) => (value.trim() ? undefined : vscode.l10n.t('Enter a name.')) })
    ).trim();
    const steps = await askPreprocessorSteps(inputs, { title, step: 3, totalSteps: 3 }, sample.columns);
    const created = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Creating preprocessor {0}', name), cancellable: true },
      async (_progress, token) => {
        const signal = signalFromToken(token);
        const dataset = await client.datasets.upload({ file_path: file.fsPath }, { signal });
        return client.preprocessors.create({ name, description: vscode.l10n.t('Fitted on {0} for {1} v{2}', fileName(file), model.model_name, version.version_number), dataset_id: dataset.dataset_id, steps }, { signal });
      },
    );
    return { preprocessorName: name, preprocessorVersionId: created.version_id, versionNumber: 1 };
  }
}
