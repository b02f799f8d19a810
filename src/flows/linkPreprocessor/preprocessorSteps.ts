import { PreprocessorStepSchema, type PreprocessorStep } from '../../contract/datasets';
import type { ColumnProfile } from '../../common/csvColumns';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import { answered, BACK, type Answer, type PickItem, type PromptPosition, type Prompter } from '../../prompts/prompter';

type StepType = PreprocessorStep['type'];

/** One value a step needs, asked with a QuickPick or an InputBox. */
type Field =
  | { name: string; ask: 'column' | 'columns'; prompt: string }
  | { name: string; ask: 'choice' | 'choices'; prompt: string; options: string[] }
  | { name: string; ask: 'number' | 'optionalNumber'; prompt: string }
  | { name: string; ask: 'text' | 'optionalText'; prompt: string };

type StepForm = { help: string; fields: Field[]; fixed?: Record<string, unknown> };

/** The form of each step type; a function so the labels are translated when asked, not when the module loads. */
function stepForms(): Record<StepType, StepForm> {
  return {
    drop_columns: { help: l10n.t('Remove columns'), fields: [{ name: 'columns', ask: 'columns', prompt: l10n.t('Columns to remove') }] },
    fill_missing: {
      help: l10n.t('Fill empty cells of a column'),
      fields: [
        { name: 'column', ask: 'column', prompt: l10n.t('Column to fill') },
        { name: 'strategy', ask: 'choice', prompt: l10n.t('Fill with'), options: ['median', 'mean', 'mode', 'constant'] },
        { name: 'value', ask: 'optionalText', prompt: l10n.t('Constant value (only for the constant strategy; empty otherwise)') },
      ],
    },
    log1p: { help: 'log(1 + x) of a numeric column', fields: [{ name: 'column', ask: 'column', prompt: l10n.t('Column to transform') }] },
    clip: {
      help: l10n.t('Clip a numeric column to a range'),
      fields: [
        { name: 'column', ask: 'column', prompt: l10n.t('Column to clip') },
        { name: 'min', ask: 'optionalNumber', prompt: l10n.t('Lowest value (empty for none)') },
        { name: 'max', ask: 'optionalNumber', prompt: l10n.t('Highest value (empty for none)') },
      ],
    },
    date_parts: {
      help: l10n.t('Split a date column into parts'),
      fields: [
        { name: 'column', ask: 'column', prompt: l10n.t('Date column') },
        { name: 'parts', ask: 'choices', prompt: l10n.t('Parts to extract'), options: ['year', 'month', 'day', 'weekday', 'hour'] },
      ],
    },
    condense_categories: {
      help: l10n.t('Group rare categories into one'),
      fields: [
        { name: 'column', ask: 'column', prompt: l10n.t('Categorical column') },
        { name: 'min_freq', ask: 'number', prompt: l10n.t('Minimum frequency to keep a category (0 to 1, e.g. 0.01)') },
      ],
    },
    text_clean: { help: l10n.t('Lower-case and trim a text column'), fields: [{ name: 'column', ask: 'column', prompt: l10n.t('Text column') }], fixed: { lower: true, trim: true } },
    quantile_bins: {
      help: l10n.t('Bin a numeric column by quantiles'),
      fields: [
        { name: 'column', ask: 'column', prompt: l10n.t('Numeric column') },
        { name: 'bins', ask: 'number', prompt: l10n.t('Number of bins (2 to 100)') },
      ],
    },
    ratio: {
      help: l10n.t('Add the ratio of two numeric columns'),
      fields: [
        { name: 'numerator', ask: 'column', prompt: l10n.t('Numerator column') },
        { name: 'denominator', ask: 'column', prompt: l10n.t('Denominator column') },
        { name: 'name', ask: 'text', prompt: l10n.t('Name of the new column') },
      ],
    },
  };
}

/** A one-line summary of a step, e.g. `fill_missing(age, median)`. */
export function describeStep(step: PreprocessorStep): string {
  const { type, ...rest } = step;
  const values = Object.values(rest).map((value) => (Array.isArray(value) ? value.join('+') : String(value)));
  return `${type}(${values.join(', ')})`;
}

/**
 * Asks for preprocessor steps one by one until the user chooses to create it (at least one step). Back or an invalid
 * step returns to the list (`warn` tells why a step was not added); Back from the list goes to the previous step.
 */
export async function askPreprocessorSteps(prompter: Prompter, position: PromptPosition, columns: ColumnProfile[], warn: (message: string) => void): Promise<Answer<PreprocessorStep[]>> {
  const steps: PreprocessorStep[] = [];
  const forms = stepForms();
  const choices = (Object.keys(forms) as StepType[]).map((type): PickItem<StepType | null> => ({ value: type, label: `$(add) ${type}`, description: forms[type].help }));
  for (;;) {
    const done: PickItem<StepType | null> = { value: null, label: steps.length === 1 ? l10n.t('$(check) Create the preprocessor with 1 step') : l10n.t('$(check) Create the preprocessor with {0} steps', steps.length), description: steps.map(describeStep).join(' → ') };
    const picked = await prompter.pickOne({
      id: 'preprocessorStep',
      position,
      placeholder: steps.length ? l10n.t('Add another step, or create the preprocessor') : l10n.t('Add the first step'),
      items: steps.length ? [done, ...choices] : choices,
    });
    if (!answered(picked)) return picked;
    if (picked === null) return steps;
    try {
      const step = await askStep(prompter, position, picked, forms[picked], columns);
      if (step === undefined) return undefined;
      if (step !== BACK) steps.push(step);
    } catch (error) {
      if (!(error instanceof UserFacingError)) throw error;
      warn(error.message);
    }
  }
}

/** Asks a step's fields in order; any prompt's Back abandons the step. */
async function askStep(prompter: Prompter, position: PromptPosition, type: StepType, form: StepForm, columns: ColumnProfile[]): Promise<Answer<PreprocessorStep>> {
  const values: Record<string, unknown> = { type, ...form.fixed };
  const title = `${position.title}: ${type}`;
  for (const field of form.fields) {
    const base = { id: field.name, position: { ...position, title }, placeholder: field.prompt };
    let value: Answer<unknown>;
    switch (field.ask) {
      case 'column':
      case 'columns': {
        const items = columns.map((column) => ({ value: column.name, label: column.name, description: column.kind }));
        value = field.ask === 'column' ? await prompter.pickOne({ ...base, items }) : await prompter.pickMany({ ...base, items });
        break;
      }
      case 'choice':
      case 'choices': {
        const items = field.options.map((label) => ({ value: label, label }));
        value = field.ask === 'choice' ? await prompter.pickOne({ ...base, items }) : await prompter.pickMany({ ...base, items });
        break;
      }
      default: {
        const numeric = field.ask === 'number' || field.ask === 'optionalNumber';
        const optional = field.ask === 'optionalNumber' || field.ask === 'optionalText';
        const text = await prompter.input({
          ...base,
          prompt: field.prompt,
          value: '',
          validate: (value) => {
            if (value.trim() === '') return optional ? undefined : l10n.t('Enter {0}.', field.name);
            return numeric && !Number.isFinite(Number(value)) ? l10n.t('{0} must be a number (got "{1}").', field.name, value) : undefined;
          },
        });
        if (!answered(text)) return text;
        const trimmed = text.trim();
        value = trimmed === '' ? null : numeric ? Number(trimmed) : trimmed;
      }
    }
    if (!answered(value)) return value;
    if (value !== null) values[field.name] = value;
  }
  const parsed = PreprocessorStepSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserFacingError(l10n.t('The {0} step is not valid: {1} {2}. Add it again.', type, issue.path.join('.') || 'step', issue.message));
  }
  return parsed.data;
}
