import type { Dataset } from '../../contract/datasets';
import { l10n } from '../../l10n/l10n';
import { answered, type PickItem, type Prompter } from '../../prompts/prompter';

/** Where the metrics of a new version holding hand edits are computed: a stored dataset, or a file to upload first. */
export type EditsDataset = { datasetId: string } | { filePath: string };

/**
 * Asks which rows a version without a stored dataset (it was trained on inline or public data, or uploaded) has its
 * edited copy's metrics computed on: one of the team's datasets with the target column, newest first, or a CSV or
 * Parquet file. Resolves to undefined when dismissed.
 */
export async function askEditsDataset(
  prompter: Prompter,
  subject: { title: string; target: string },
  datasets: Promise<readonly Dataset[]>,
): Promise<EditsDataset | undefined> {
  const items = datasets.then((all) => {
    const usable = all.filter((d) => d.columns.includes(subject.target)).sort((a, b) => b.created.localeCompare(a.created));
    // null: choose a file.
    const stored: PickItem<string | null>[] = usable.map((d) => ({
      label: d.name,
      description: l10n.t('{0} rows, {1} columns', d.rows, d.columns.length),
      value: d.dataset_id,
    }));
    return [
      ...stored,
      { label: l10n.t('Choose a CSV or Parquet file…'), description: l10n.t('uploaded as a dataset first'), value: null },
    ];
  });
  const picked = await prompter.pickOne({
    id: 'editsDataset',
    position: { title: subject.title, canGoBack: false },
    placeholder: l10n.t('The version has no stored dataset: which rows with {0} should the new version\u2019s metrics be computed on?', subject.target),
    items,
  });
  if (!answered(picked)) return undefined;
  if (picked !== null) return { datasetId: picked };
  const filePath = await prompter.pickCsvFile(subject.title);
  return filePath ? { filePath } : undefined;
}
