import type { CopyReport, CopyTarget, XModelsClient } from '../../client';
import type { ModelInfo } from '../../contract';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import { answered, type PickItem, type Prompter } from '../../prompts/prompter';
import { DONE, runSteps, stepPosition, type Step } from '../../prompts/steps';

/** Another service, or another team of this one, that a model can be copied to. */
export interface CopyDestination {
  /** Which service: `Local service`, `Hosted service (host)`. */
  label: string;
  /** Which team. */
  description: string;
  /** Connects to it; `close` releases the connection (and stops a service started for the copy). */
  open(): Promise<OpenedDestination>;
}

export interface OpenedDestination {
  client: CopyTarget & { models: Pick<XModelsClient['models'], 'listTeamModels'> };
  close(): Promise<void>;
}

export interface CopyModelDeps {
  readonly prompter: Prompter;
  /** The models of the connected service, where the model is copied from. */
  readonly source: Pick<XModelsClient['models'], 'copyPlan' | 'copyTo'>;
  destinations(): Promise<CopyDestination[]>;
  /** Runs the copy under a cancellable progress notification titled `title`. */
  underProgress<T>(title: string, task: (signal: AbortSignal, report: (message: string) => void) => Promise<T>): Promise<T>;
}

export interface CopyOutcome {
  destination: CopyDestination;
  report: CopyReport;
}

/** A size as people read it: kilobytes under a megabyte, else megabytes with one decimal. */
export function formatSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? l10n.t('{0} MB', mb.toFixed(1)) : l10n.t('{0} KB', Math.ceil(bytes / 1024));
}

const NEW_MODEL = null;

/**
 * "Copy to…" on a model: asks where (another service or team), into what (a new model, its name checked to be free
 * there, or an existing model with the same target and type), and whether the datasets go too (with their size),
 * then copies under a cancellable progress notification. Resolves to the report, or undefined when dismissed.
 */
export async function copyModel(deps: CopyModelDeps, model: ModelInfo): Promise<CopyOutcome | undefined> {
  const { prompter } = deps;
  const title = l10n.t('Copy {0} to…', model.model_name);
  const [plan, destinations] = await Promise.all([deps.source.copyPlan(model.model_id), deps.destinations()]);
  if (destinations.length === 0) {
    throw new UserFacingError(l10n.t('There is no other service or team to copy {0} to. Run "XModels: Connect to Hosted Service…" to add a team server.', model.model_name));
  }
  const copyable = plan.datasets.filter((d) => !d.reason);
  const total = copyable.length ? 4 : 3;
  let destination: CopyDestination | undefined;
  let opened: OpenedDestination | undefined;
  let theirs: ModelInfo[] = [];
  let into: ModelInfo | null = NEW_MODEL;
  let name = model.model_name;
  let withDatasets = false;

  const datasetsStep: Step = async () => {
    const stayBehind = plan.datasets.length - copyable.length;
    const size = formatSize(copyable.reduce((sum, d) => sum + d.size_bytes, 0));
    const items: PickItem<boolean>[] = [
      { value: false, label: l10n.t('Copy the versions only'), description: l10n.t('their copies cannot be refitted there until a dataset is uploaded'), picked: true },
      {
        value: true,
        label: copyable.length === 1 ? l10n.t('Also copy the dataset ({0})', size) : l10n.t('Also copy the {0} datasets ({1})', copyable.length, size),
        description: copyable.map((d) => d.name).join(', '),
        detail: stayBehind ? l10n.t('{0} more stay in their database and are not copied', stayBehind) : undefined,
      },
    ];
    const picked = await prompter.pickOne({ id: 'datasets', position: stepPosition(title, total, total), placeholder: l10n.t('The datasets the versions were fitted on'), items });
    if (!answered(picked)) return picked;
    withDatasets = picked;
    return DONE;
  };
  const afterModel: Step | typeof DONE = copyable.length ? datasetsStep : DONE;
  const nameStep: Step = async () => {
    const taken = new Set(theirs.map((m) => m.model_name));
    const answer = await prompter.input({
      id: 'name',
      position: stepPosition(title, 3, total),
      prompt: l10n.t('Name of the new model on {0}, {1}', destination?.label ?? '', destination?.description ?? ''),
      value: name,
      validate: (value) => {
        if (!value.trim()) return l10n.t('Enter a name.');
        return taken.has(value.trim()) ? l10n.t('{0} already has a model named {1}: choose another name, or go back and copy into it.', destination?.description ?? '', value.trim()) : undefined;
      },
    });
    if (!answered(answer)) return answer;
    name = answer.trim();
    return afterModel;
  };
  const intoStep: Step = async () => {
    const same = theirs.filter((m) => m.target_name === model.target_name && m.model_type === model.model_type);
    const items: PickItem<ModelInfo | null>[] = [
      { value: NEW_MODEL, label: l10n.t('$(add) New model'), description: model.model_name, picked: true },
      ...same.map((m) => ({
        value: m,
        label: m.model_name,
        description: m.number_of_versions === 1 ? l10n.t('1 version') : l10n.t('{0} versions', m.number_of_versions),
        detail: l10n.t('add the versions not copied there yet'),
      })),
    ];
    const picked = await prompter.pickOne({ id: 'into', position: stepPosition(title, 2, total), placeholder: l10n.t('A new model, or a model predicting {0} to add the versions to', model.target_name), items });
    if (!answered(picked)) return picked;
    into = picked;
    return into === NEW_MODEL ? nameStep : afterModel;
  };
  const destinationStep: Step = async () => {
    const items = destinations.map((d) => ({ value: d, label: d.label, description: d.description }));
    const picked = await prompter.pickOne({ id: 'destination', position: stepPosition(title, 1, total), placeholder: l10n.t('Where to copy {0} and its {1} versions', model.model_name, plan.versions.length), items });
    if (!answered(picked)) return picked;
    if (picked !== destination) {
      await opened?.close();
      [opened, destination] = [undefined, undefined];
      opened = await picked.open();
      destination = picked;
      theirs = await opened.client.models.listTeamModels();
    }
    return intoStep;
  };

  try {
    if (!(await runSteps(destinationStep)) || !destination || !opened) return undefined;
    const target = opened.client;
    const report = await deps.underProgress(l10n.t('Copying {0} to {1}', model.model_name, destination.label), (signal, tell) =>
      deps.source.copyTo(target, model.model_id, {
        ...(into ? { into: (into as ModelInfo).model_id } : { name }),
        withDatasets,
        signal,
        onProgress: (p) => tell(l10n.t('{0} of {1}: {2}', p.step, p.steps, p.message)),
      }),
    );
    return { destination, report };
  } finally {
    await opened?.close();
  }
}

/** One sentence on what a copy did, for the notification. */
export function copySummary({ destination, report }: CopyOutcome): string {
  const copied = report.versions.filter((v) => v.status === 'copied').length;
  const there = `${destination.label} (${destination.description})`;
  const datasets = report.datasets.filter((d) => d.status === 'copied').length;
  const withDatasets = datasets === 0 ? '' : datasets === 1 ? l10n.t(' with 1 dataset') : l10n.t(' with {0} datasets', datasets);
  const missing = report.versions.length - copied - report.versions.filter((v) => v.status === 'already_copied').length;
  const head = report.cancelled ? l10n.t('Cancelled: ') : '';
  const main = l10n.t('{0}Copied {1} of {2} versions of {3} to {4} as {5}{6}.', head, copied, report.versions.length, report.source.model_name, there, report.target.model_name, withDatasets);
  return missing > 0 ? `${main} ${l10n.t('{0} not copied: the report says why.', missing)}` : main;
}

/** Markdown escaping for a name inside a sentence. */
const md = (text: string) => text.replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`);

/** The full report as Markdown: every version and dataset, its copy's id or why it was not copied. */
export function copyReportMarkdown({ destination, report }: CopyOutcome): string {
  const lines = [
    `# ${l10n.t('Copy of {0} to {1} ({2})', md(report.source.model_name), md(destination.label), md(destination.description))}`,
    '',
    report.target.model_id
      ? l10n.t('Into {0} ({1}), model id `{2}`.', md(report.target.model_name), report.target.created ? l10n.t('a new model') : l10n.t('an existing model'), report.target.model_id)
      : l10n.t('No version was copied, so no model {0} was made there.', md(report.target.model_name)),
    ...(report.cancelled ? ['', l10n.t('The copy was cancelled: the versions copied before are there whole; the others are not there at all.')] : []),
    '',
    `## ${l10n.t('Versions')}`,
    '',
    ...report.versions.map((v) => {
      const copy = v.copy ? l10n.t('v{0} there (`{1}`)', v.copy.version_number, v.copy.version_id) : '';
      const head = `- v${v.version_number} (\`${v.version_id}\`)`;
      const leftOut = v.left_out.length ? ` ${l10n.t('Not carried: {0}.', v.left_out.join('; '))}` : '';
      if (v.status === 'copied') return `${head} → ${copy}.${leftOut}`;
      if (v.status === 'already_copied') return `${head} → ${copy}: ${l10n.t('already there from an earlier copy')}.`;
      return `${head} ${l10n.t('not copied: {0}.', v.reason ?? '')}`;
    }),
  ];
  if (report.datasets.length) {
    lines.push('', `## ${l10n.t('Datasets')}`, '');
    for (const d of report.datasets) {
      lines.push(
        d.status === 'copied'
          ? `- ${md(d.name)} (${formatSize(d.size_bytes)}, \`${d.dataset_id}\`) → \`${d.copy_id ?? ''}\``
          : `- ${md(d.name)} (\`${d.dataset_id}\`) ${l10n.t('not copied: {0}.', d.reason ?? '')}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
