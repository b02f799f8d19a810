import type { DatasetSource } from '../../contract/datasets';
import { formatNumber } from '../../views/format';
import { code, numberCell, paragraph, type Block, type Span } from '../document';
import { dateText, type ReportView } from '../view';

export const DATA = { id: 'data', text: 'Data' } as const;

const listed = (names: readonly string[]): Span[] => names.flatMap((name, i): Span[] => [...(i ? [', '] : []), code(name)]);

function sourceText(source: DatasetSource | null | undefined): string {
  if (!source) return 'an uploaded file';
  const what = source.table !== undefined ? `table ${source.table}` : `a query: ${source.query ?? ''}`;
  return `${what} of connection ${source.connection} (the rows stay in that database)`;
}

/** Where the training rows came from, what the model reads of them, and how they were split. */
export function dataSection(view: ReportView): Block[] {
  const { version, dataset, model } = view.input;
  const described: Block[] = dataset
    ? [
        paragraph('Trained on the dataset ', code(dataset.name), `: ${formatNumber(dataset.rows)} rows and ${dataset.columns.length} columns.`),
        {
          kind: 'facts',
          rows: [
            ['Dataset', dataset.name],
            ['Dataset id', dataset.dataset_id],
            ['Rows', formatNumber(dataset.rows)],
            ['Columns', String(dataset.columns.length)],
            ['Source', sourceText(dataset.source)],
            ['Stored', dateText(dataset.created)],
          ],
        },
        paragraph('Its columns: ', ...listed(dataset.columns), '.'),
      ]
    : version.dataset_id
      ? [paragraph(`Trained on dataset ${version.dataset_id}, which this service no longer stores.`)]
      : [paragraph('This version records no stored dataset: it was trained on rows sent with the request or on a sample dataset of the service, or uploaded as a fitted model.')];
  const source = !dataset && version.dataset_source ? [paragraph(`Its rows came from ${sourceText(version.dataset_source)}.`)] : [];
  const split = version.parameters.test_size;
  const seed = version.parameters.seed;
  const splitWords = typeof split === 'number' ? ` A share of ${formatNumber(split)} of the rows was held out for testing${typeof seed === 'number' ? ` (seed ${seed})` : ''}.` : '';
  return [
    { kind: 'heading', level: 2, ...DATA },
    ...described,
    ...source,
    paragraph('The model predicts ', code(model.target_name), ` from ${view.tables.features.length} features: `, ...listed(view.tables.features), '.'),
    paragraph(`The rows ${view.partitioned ? 'each partition' : 'it'} was fitted and tested on.${splitWords}`),
    {
      kind: 'table',
      head: ['Partition', 'Training rows', 'Test rows'],
      rows: view.parts.map((part) => [
        part.label,
        numberCell(part.partition ? formatNumber(part.partition.n_train) : '—', part.partition?.n_train ?? null),
        numberCell(part.partition ? formatNumber(part.partition.n_test) : '—', part.partition?.n_test ?? null),
      ]),
    },
  ];
}
