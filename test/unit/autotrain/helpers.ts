import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetSummary } from '../../../src/contract/autotrain';
import { parseCsv, type DataFrame } from '../../../src/engine';
import { RULES_CONTEXT, summarizeDataset } from '../../../src/autotrain';

export const DATA_DIR = join(__dirname, '..', '..', '..', 'media', 'datasets');

export function loadFrame(file: string): DataFrame {
  return parseCsv(readFileSync(join(DATA_DIR, file), 'utf8'));
}

export async function ruleSummary(file: string): Promise<{ frame: DataFrame; summary: DatasetSummary }> {
  const frame = loadFrame(file);
  const summary = await summarizeDataset(frame, { dataset_id: 'ds-1', name: file, file_name: file }, RULES_CONTEXT);
  return { frame, summary };
}
