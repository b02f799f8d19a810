import * as vscode from 'vscode';
import { PreprocessorStepSchema, type PreprocessorStep } from '../contract/datasets';
import type { ColumnProfile } from '../common/csvColumns';
import { UserFacingError } from '../common/errors';
import { isBack, type QuickInputs, type StepInfo } from '../common/multiStepInput';

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
    drop_columns: { help: vscode.l10n.t('Remove columns'), fields: [{ name: 'columns', ask: 'columns', prompt: vscode.l10n.t('Columns to remove') }] },
    fill_missing: {
      help: vscode.l10n.t('Fill empty cells of a column'),
      fields: [
        { name: 'column', ask: 'column', prompt: vscode.l10n.t('Column to fill') },
        { name: 'strategy', ask: 'choice', prompt: vscode.l10n.t('Fill with'), options: ['median', 'mean', 'mode', 'constant'] },
        { name: 'value', ask: 'optionalText', prompt: vscode.l10n.t('Constant value (only for the constant strategy; empty otherwise)') },
      ],
    },
    log1p: { help: 'log(1 + x) of a numeric column', fields: [{ name: 'column', ask: 'column', prompt: vscode.l10n.t('Column to transform') }] },
    clip: {
      help: vscode.l10n.t('Clip a numeric column to a range'),
      fields: [
        { name: 'column', ask: 'column', prompt: vscode.l10n.t('Column to clip') },
        { name: 'min', ask: 'optionalNumber', prompt: vscode.l10n.t('Lowest value (empty for none)') },
        { name: 'max', ask: 'optionalNumber', prompt: vscode.l10n.t('Highest value (empty for none)') },
      ],
    },
    date_parts: {
      help: vscode.l10n.t('Split a date column into parts'),
      fields: [
        { name: 'column', ask: 'column', prompt: vscode.l10n.t('Date column') },
        { name: 'parts', ask: 'choices', prompt: vscode.l10n.t('Parts to extract'), options: ['year', 'month', 'day', 'weekday', 'hour'] },
      ],
    },
    condense_categories: {
      help: vscode.l10n.t('Group rare categories into one'),
      fields: [
        { name: 'column', ask: 'column', prompt: vscode.l10n.t('Categorical column') },
        { name: 'min_freq', ask: 'number', prompt: vscode.l10n.t('Minimum frequency to keep a category (0 to 1, e.g. 0.01)') },
      ],
    },
    text_clean: { help: vscode.l10n.t('Lower-case and trim a text column'), fields: [{ name: 'column', ask: 'column', prompt: vscode.l10n.t('Text column') }], fixed: { lower: true, trim: true } },
    quantile_bins: {
      help: vscode.l10n.t('Bin a numeric column by quantiles'),
      fields: [
        { name: 'column', ask: 'column', prompt: vscode.l10n.t('Numeric column') },
        { name: 'bins', ask: 'number', prompt: vscode.l10n.t('Number of bins (2 to 100)') },
      ],
    },
    ratio: {
      help: vscode.l10n.t('Add the ratio of two numeric columns'),
      fields: [
        { name: 'numerator', ask: 'column', prompt: vscode.l10n.t('Numerator column') },
        { name: 'denominator', ask: 'column', prompt: vscode.l10n.t('Denominator column') },
        { name: 'name', ask: 'text', prompt: vscode.l10n.t('Name of the new column') },
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

/** Asks for preprocessor steps one by one until the user chooses to create it (at least one step). */
export async function askPreprocessorSteps(inputs: QuickInputs, position: StepInfo, columns: ColumnProfile[]): Promise<PreprocessorStep[]> {
  const steps: PreprocessorStep[] = [];
  const forms = stepForms();
  const choices = (Object.keys(forms) as StepType[]).map((type) => ({ type, label: `$(add) ${type}`, description: forms[type].help }));
  for (;;) {
    const done = { type: undefined, label: `$(check) Create the preprocessor with ${steps.length} step${steps.length === 1 ? '' : 's'}`, description: steps.map(describeStep).join(' → ') };
    const picked = await inputs.pick<vscode.QuickPickItem & { type: StepType | undefined }>({
      ...position,
      placeholder: steps.length ? vscode.l10n.t('Add another step, or create the preprocessor') : vscode.l10n.t('Add the first step'),
      items: steps.length ? [done, ...choices] : choices,
    });
    if (!picked.type) return steps;
    try {
      steps.push(await askStep(inputs, position, picked.type, forms[picked.type], columns));
    } catch (error) {
      if (error instanceof UserFacingError) void vscode.window.showWarningMessage(error.message);
      else if (!isBack(error)) throw error;
    }
  }
}

async function askStep(inputs: QuickInputs, position: StepInfo, type: StepType, form: StepForm, columns: ColumnProfile[]): Promise<PreprocessorStep> {
  const values: Record<string, unknown> = { type, ...form.fixed };
  const title = `${position.title}: ${type}`;
  for (const field of form.fields) {
    const base = { ...position, title, placeholder: field.prompt };
    switch (field.ask) {
      case 'column':
      case 'columns': {
        const items = columns.map((column) => ({ label: column.name, description: column.kind }));
        values[field.name] = field.ask === 'column' ? (await inputs.pick({ ...base, items })).label : (await inputs.pickMany({ ...base, items })).map((item) => item.label);
        break;
      }
      case 'choice':
      case 'choices': {
        const items = field.options.map((label) => ({ label }));
        values[field.name] = field.ask === 'choice' ? (await inputs.pick({ ...base, items })).label : (await inputs.pickMany({ ...base, items })).map((item) => item.label);
        break;
      }
      default: {
        const numeric = field.ask === 'number' || field.ask === 'optionalNumber';
        const optional = field.ask === 'optionalNumber' || field.ask === 'optionalText';
        const text = (
          await inputs.input({
            ...base,
            prompt: field.prompt,
            validate: (value) => {
              if (value.trim() === '') return optional ? undefined : vscode.l10n.t('Enter {0}.', field.name);
              return numeric && !Number.isFinite(Number(value)) ? `${field.name} must be a number (got "${value}").` : undefined;
            },
          })
        ).trim();
        if (text !== '') values[field.name] = numeric ? Number(text) : text;
      }
    }
  }
  const parsed = PreprocessorStepSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserFacingError(vscode.l10n.t('The {0} step is not valid: {1} {2}. Add it again.', type, issue.path.join('.') || 'step', issue.message));
  }
  return parsed.data;
}
