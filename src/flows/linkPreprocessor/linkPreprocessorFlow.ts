import { basename } from 'node:path';
import type { XModelsClient } from '../../client';
import type { ModelInfo, ModelVersion } from '../../contract';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import { answered, type PickItem, type Prompter } from '../../prompts/prompter';
import { DONE, runSteps, stepPosition, type Step } from '../../prompts/steps';
import { shortDate } from '../../tree/nodeText';
import { sampleCsv } from '../csvSample';
import { askPreprocessorSteps, describeStep } from './preprocessorSteps';

export interface Linked {
  preprocessorName: string;
  preprocessorVersionId: string;
  versionNumber: number;
}

export interface LinkPreprocessorDeps {
  readonly prompter: Prompter;
  readonly client: Pick<XModelsClient, 'preprocessors' | 'datasets' | 'models'>;
  /** Runs a cancellable service call under a progress notification titled `title`. */
  underProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Tells the user something went wrong without stopping the flow. */
  warn(message: string): void;
}

/**
 * Links an existing preprocessor version to a model version, or fits a new preprocessor on a CSV (file, name,
 * steps) and links its first version. Resolves to what was linked, or undefined when the user dismissed a prompt.
 */
export async function linkPreprocessor(deps: LinkPreprocessorDeps, model: ModelInfo, version: ModelVersion): Promise<Linked | undefined> {
  const { prompter, client } = deps;
  const title = l10n.t('Link a preprocessor to {0} v{1}', model.model_name, version.version_number);
  const preprocessors = await client.preprocessors.list();
  let linked: Linked | undefined;

  const createStep: Step = async () => {
    const file = await prompter.pickCsvFile(l10n.t('Preprocessor: choose the CSV to fit its steps on'));
    if (file === undefined) return undefined;
    const sample = await sampleCsv(file);
    const name = await prompter.input({
      id: 'name',
      position: stepPosition(title, 2, 3),
      prompt: l10n.t('Preprocessor name'),
      value: `${model.model_name} preprocessing`,
      validate: (value) => (value.trim() ? undefined : l10n.t('Enter a name.')),
    });
    if (!answered(name)) return name;
    const steps = await askPreprocessorSteps(prompter, stepPosition(title, 3, 3), sample.columns, deps.warn);
    if (!answered(steps)) return steps;
    const created = await deps.underProgress(l10n.t('Creating preprocessor {0}', name.trim()), async (signal) => {
      const dataset = await client.datasets.upload({ file_path: file }, { signal });
      const description = l10n.t('Fitted on {0} for {1} v{2}', basename(file), model.model_name, version.version_number);
      return client.preprocessors.create({ name: name.trim(), description, dataset_id: dataset.dataset_id, steps }, { signal });
    });
    linked = { preprocessorName: name.trim(), preprocessorVersionId: created.version_id, versionNumber: 1 };
    return DONE;
  };
  const versionStep = (preprocessorId: string, name: string): Step => async () => {
    const versions = [...(await client.preprocessors.listVersions(preprocessorId))].sort((a, b) => b.version_number - a.version_number);
    if (versions.length === 0) throw new UserFacingError(l10n.t('Preprocessor {0} has no versions yet.', name));
    const items = versions.map((v, index): PickItem<Linked> => ({
      value: { preprocessorName: name, preprocessorVersionId: v.version_id, versionNumber: v.version_number },
      label: `v${v.version_number}`,
      description: shortDate(v.created),
      detail: v.steps.map(describeStep).join(' → '),
      picked: index === 0,
    }));
    const picked = await prompter.pickOne({ id: 'version', position: stepPosition(title, 2, 2), placeholder: l10n.t('Version of {0}', name), items });
    if (!answered(picked)) return picked;
    linked = picked;
    return DONE;
  };
  const preprocessorStep: Step = async () => {
    const create: PickItem<{ id: string; name: string } | null> = { value: null, label: l10n.t('$(add) Create a preprocessor from a CSV…'), description: l10n.t('fit steps on a dataset') };
    const items = [
      create,
      ...preprocessors.map((p) => ({ value: { id: p.preprocessor_id, name: p.name }, label: p.name, description: p.versions === 1 ? l10n.t('1 version') : l10n.t('{0} versions', p.versions), detail: p.description || undefined })),
    ];
    const active = items[1] ?? create;
    const picked = await prompter.pickOne({ id: 'preprocessor', position: stepPosition(title, 1, 2), placeholder: l10n.t('Preprocessor to link'), items: items.map((item) => ({ ...item, picked: item === active })) });
    if (!answered(picked)) return picked;
    return picked ? versionStep(picked.id, picked.name) : createStep;
  };
  if (!(await runSteps(preprocessorStep)) || !linked) return undefined;

  await client.models.linkPreprocessor({ model_version_id: version.version_id, preprocessor_version_id: linked.preprocessorVersionId });
  return linked;
}
