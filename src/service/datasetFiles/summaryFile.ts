import type { DataFrame } from '../../engine';
import { summaryRules, type SummaryRules } from '../../autotrain';
import { readJsonFile, writeFiniteJsonFile } from '../base/json';

/**
 * The rules part of an uploaded dataset's autotrain summary (`SummaryRules`: it depends on the rows alone), stored
 * next to its CSV as `<id>.summary.json` when the dataset is parsed. Written on worker threads.
 */
export const summaryPath = (csvPath: string) => csvPath.replace(/\.csv$/, '') + '.summary.json';

export function writeSummaryFile(csvPath: string, frame: DataFrame): SummaryRules {
  return writeFiniteJsonFile(summaryPath(csvPath), summaryRules(frame));
}

/** The cached summary rules read without blocking; null when the dataset has none yet. */
export function readSummaryFile(csvPath: string): Promise<SummaryRules | null> {
  return readJsonFile<SummaryRules>(summaryPath(csvPath));
}
