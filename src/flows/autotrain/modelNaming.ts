import type { Goal, Label } from '../../contract/autotrain';
import { l10n } from '../../l10n/l10n';

/** A label as chosen in the wizard or passed by a command (the model type may be left to the service). */
export type LabelChoice = Pick<Label, 'column'> & Partial<Pick<Label, 'model_type' | 'rare_classes'>>;

export const MAX_MODEL_NAME_LENGTH = 100;
const FALLBACK_NAME = 'autotrain-model';

/** The last segment of a POSIX or Windows path. */
export function fileBaseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** `data/Telco Churn (2024).csv` → `Telco Churn 2024`: the file's base name without extension or punctuation runs. */
export function defaultModelName(fileName: string): string {
  const stem = fileBaseName(fileName).replace(/\.[^.]*$/, '');
  const cleaned = stem
    .replace(/[^\p{L}\p{N}_.-]+/gu, ' ')
    .trim()
    .replace(/\s+/g, ' ')
    .slice(0, MAX_MODEL_NAME_LENGTH)
    .trim();
  return cleaned || FALLBACK_NAME;
}

/** The message to show under a name box (model or preprocessor), or undefined when the name is acceptable. */
export function validateName(value: string): string | undefined {
  const name = value.trim();
  if (!name) return l10n.t('Enter a name.');
  if (name.length > MAX_MODEL_NAME_LENGTH) {
    return l10n.t('Use at most {0} characters (this name has {1}).', MAX_MODEL_NAME_LENGTH, name.length);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return l10n.t('Remove the control characters from the name.');
  return undefined;
}

/** A one-line description naming the data, the label and the questions the user kept. */
export function defaultModelDescription(fileName: string, label: LabelChoice, goals: readonly Goal[]): string {
  const kind = label.model_type ? ` (${label.model_type})` : '';
  const base = l10n.t('Predicts {0}{1} from {2}.', label.column, kind, fileBaseName(fileName));
  if (goals.length === 0) return base;
  return l10n.t('{0} Questions: {1}', base, goals.map((g) => g.question).join(' '));
}
