import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATASETS, type Call } from './harness';

export const penguinsCsv = () => readFileSync(join(DATASETS, 'penguins.csv'), 'utf8');
export const weatherCsv = () => readFileSync(join(DATASETS, 'weather.csv'), 'utf8');

/**
 * A stand-in for the bird-strike data: four damage levels (mostly "None") that follow speed and height, and a
 * total cost that is the sum of two cost columns.
 */
export function strikesCsv(rows = 400): string {
  const lines = ['Speed,Height,Cost Repairs $,Cost Other $,Cost Total $,Damage'];
  for (let i = 0; i < rows; i++) {
    const speed = 80 + ((i * 37) % 220);
    const height = (i * 53) % 3000;
    const severity = speed + height / 40;
    const damage = severity < 250 ? 'None' : severity < 300 ? 'Minor' : severity < 330 ? 'Medium' : 'Substantial';
    const repairs = (i * 71) % 900;
    const other = (i * 13) % 150;
    lines.push(`${speed},${height},${repairs},${other},${repairs + other},${damage}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A small two-class CSV with a numeric and a categorical feature, generated deterministically. */
export function smallCsv(rows = 120): string {
  const lines = ['x,color,size,label'];
  for (let i = 0; i < rows; i++) {
    const x = (i * 37) % 100;
    const color = ['red', 'green', 'blue'][i % 3];
    const size = (i * 13) % 50;
    const label = x + (color === 'red' ? 20 : 0) > 60 ? 'yes' : 'no';
    lines.push(`${x},${color},${size},${label}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function uploadCsv(call: Call, csv: string, name = 'data.csv'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), name);
  const res = await call('POST', '/v1/datasets', { body: form });
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.dataset_id as string;
}

export async function trainSmall(call: Call, extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/v1/models/train', {
    json: { target_column: 'label', model_name: 'small', csv_content: smallCsv(), ...extra },
  });
  if (res.status !== 200) throw new Error(`train failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A dataset summary of `n` columns, half numbers and half categories, as the autotrain routes take it. */
export function wideSummary(n: number) {
  const columns = Array.from({ length: n }, (_, i) => `${i % 2 ? 'measure' : 'kind'}${i}`);
  const fields = columns.map((column, i) => ({
    column,
    properties: i % 2
      ? { dtype: 'number', samples: [1, 2, 3], num_unique_values: 50, semantic_type: '', description: '', min: 1, max: 10, mean: 5, std: 1 }
      : { dtype: 'category', samples: ['a', 'b'], num_unique_values: 2 + (i % 7), semantic_type: '', description: '' },
  }));
  const perColumn = (value: unknown) => Object.fromEntries(columns.map((c) => [c, value]));
  return { dataset_id: null, name: 'wide', file_name: 'wide.csv', dataset_description: '', rows: 100, columns, dtypes: perColumn('number'), missing_values: perColumn(0), field_names: columns, fields };
}
