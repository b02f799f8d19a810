export type ReportFormat = 'html' | 'markdown';

/** Characters no file name may hold on some system: path separators, Windows' reserved ones, controls and direction marks. */
const NOT_IN_FILE_NAMES = /[/\\:*?"<>|\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** `<model>-v<N>-report.html` (or `.md`): the model's name with what a file name cannot hold as `_`, at most 80 characters of it. */
export function reportFileName(modelName: string, versionNumber: number, format: ReportFormat): string {
  const safe = Array.from(modelName.replace(NOT_IN_FILE_NAMES, '_')).slice(0, 80).join('').replace(/^[\s.]+|[\s.]+$/g, '');
  return `${safe || 'model'}-v${versionNumber}-report.${format === 'html' ? 'html' : 'md'}`;
}
