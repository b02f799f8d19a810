import { withDataPath, type VisualizationResponse } from '../contract/autotrain';
import type { VisualizationArgs } from '../views/protocol';

/**
 * The chart program reading the data by the full path of the local file the summary was made from, when the panel
 * knows it: saved anywhere, the program then finds its data (a file of that name beside it still comes first).
 */
export function withLocalData(response: VisualizationResponse, args: VisualizationArgs): VisualizationResponse {
  return args.dataPath ? { ...response, code: withDataPath(response.code, args.dataPath) } : response;
}

/** The program as the service wrote it, reading the data by the file's name: what an edit sends, so no local path leaves with it. */
export function withDataFileName(code: string, args: VisualizationArgs): string {
  return withDataPath(code, args.summary.file_name);
}
