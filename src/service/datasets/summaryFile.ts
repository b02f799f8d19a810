import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { DataFrame } from '../../engine';
import { summaryRules, type SummaryRules } from '../autotrain';
import { writeFiniteJsonFile } from '../json';

/**
 * The rules part of an uploaded dataset's autotrain summary (`SummaryRules`: it depends on the rows alone), stored
 * next to its CSV as `<id>.summary.json` when the dataset is parsed. Written on worker threads.
 */
export const summaryPath = (csvPath: string) => csvPath.replace(/\.csv$/, '') + '.summary.json';

export function writeSummaryFile(csvPath: string, frame: DataFrame): SummaryRules {
  return writeFiniteJsonFile(summaryPath(csvPath), summaryRules(frame));
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** The cached summary rules, or those of `frame()` cached now for a dataset stored before summaries were. */
export function loadSummarySync(csvPath: string, frame: () => DataFrame): SummaryRules {
  try {
    return JSON.parse(readFileSync(summaryPath(csvPath), 'utf8')) as SummaryRules;
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  return writeSummaryFile(csvPath, frame());
}

/** The cached summary rules read without blocking; null when the dataset has none yet. */
export async function readSummaryFile(csvPath: string): Promise<SummaryRules | null> {
  try {
    return JSON.parse(await readFile(summaryPath(csvPath), 'utf8')) as SummaryRules;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}
