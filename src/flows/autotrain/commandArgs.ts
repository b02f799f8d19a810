import * as z from 'zod';
import { UserFacingError } from '../../common/errors';
import {
  DatasetSummarySchema, GoalInputSchema, LabelSchema, RecommendationSchema, type DatasetSummary, type GoalInput,
} from '../../contract/autotrain';
import { PreprocessorStepSchema, type PreprocessorStep } from '../../contract/datasets';
import type { LabelChoice } from './modelNaming';
import type { Prompter } from '../../prompts/prompter';
import { l10n } from '../../l10n/l10n';

/** The optional last argument of every wizard command: a prompter that answers in place of the user. */
export interface WizardOptions {
  readonly prompter?: Prompter;
}

export function wizardOptionsOf(args: readonly unknown[]): WizardOptions {
  for (const arg of args) {
    const prompter = (arg as { prompter?: Partial<Prompter> } | undefined)?.prompter;
    if (prompter && typeof prompter.pickOne === 'function' && typeof prompter.input === 'function') {
      return { prompter: prompter as Prompter };
    }
  }
  return {};
}

/** The local path of a CSV URI argument (explorer context menu), or undefined when the argument is none. */
export function csvPathOf(arg: unknown): string | undefined {
  const uri = arg as { scheme?: unknown; fsPath?: unknown } | undefined;
  if (typeof uri?.fsPath !== 'string' || typeof uri.scheme !== 'string') return undefined;
  if (uri.scheme !== 'file') {
    throw new UserFacingError(l10n.t('Autotrain reads CSV files from the local disk; {0} is a {1} resource. Save a copy locally and try again.', uri.fsPath, uri.scheme));
  }
  if (!/\.(csv|parquet)$/i.test(uri.fsPath)) throw new UserFacingError(l10n.t('Autotrain needs a .csv or .parquet file (got {0}).', uri.fsPath));
  return uri.fsPath;
}

/** A data set the service already holds (one registered from a database table or query), as commands pass it. */
export interface DatasetRef {
  readonly dataset_id: string;
  readonly name: string;
}

/** The data set argument of a command run on a table of the Data view, or undefined when the argument is none. */
export function datasetRefOf(arg: unknown): DatasetRef | undefined {
  const ref = arg as Partial<DatasetRef> | undefined;
  return typeof ref?.dataset_id === 'string' && typeof ref.name === 'string' ? { dataset_id: ref.dataset_id, name: ref.name } : undefined;
}

function isPayload(arg: unknown): arg is Record<string, unknown> {
  return typeof arg === 'object' && arg !== null && 'summary' in arg;
}

function parsePayload<S extends z.ZodType>(command: string, schema: S, arg: unknown): z.output<S> {
  const result = schema.safeParse(arg);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue.path.length ? issue.path.join('.') : 'argument';
  throw new UserFacingError(l10n.t('{0} received an invalid {1}: {2}.', command, path, issue.message));
}

const SummaryGoalSchema = z.object({ summary: DatasetSummarySchema, goal: GoalInputSchema, dataPath: z.string().min(1).optional() });

/** A summary and a question about its data; `dataPath`: the local file summarized, when it was one. */
export interface SummaryGoal {
  summary: DatasetSummary;
  goal: GoalInput;
  dataPath?: string;
}

/** `{summary, goal, dataPath?}` when the command was given one (from a panel), undefined when it should ask. */
export function summaryGoalOf(command: string, arg: unknown): SummaryGoal | undefined {
  return isPayload(arg) ? parsePayload(command, SummaryGoalSchema, arg) : undefined;
}

const SummaryLabelSchema = z.object({
  summary: DatasetSummarySchema,
  label: z.union([LabelSchema, z.string().min(1).transform((column) => ({ column }))]),
});

/** `{summary, label}` where label is a Label or a column name. */
export function summaryLabelOf(command: string, arg: unknown): { summary: DatasetSummary; label: LabelChoice } {
  if (!isPayload(arg)) throw new UserFacingError(l10n.t('{0} needs {summary, label}: run it from the dataset summary panel.', command));
  const { summary, label } = parsePayload(command, SummaryLabelSchema, arg);
  if (!summary.columns.includes(label.column)) {
    throw new UserFacingError(l10n.t('{0} received the label {1}, which is not a column of {2}.', command, label.column, summary.file_name));
  }
  return { summary, label };
}

const SummaryStepsSchema = z.object({
  summary: DatasetSummarySchema,
  steps: z.array(z.union([PreprocessorStepSchema, RecommendationSchema.transform((rec) => rec.step)])).min(1),
});

/** `{summary, steps}` where each step is a preprocessor step or a recommendation carrying one. */
export function summaryStepsOf(command: string, arg: unknown): { summary: DatasetSummary; steps: PreprocessorStep[] } {
  if (!isPayload(arg)) throw new UserFacingError(l10n.t('{0} needs {summary, steps}: run it from the dataset summary panel.', command));
  return parsePayload(command, SummaryStepsSchema, arg);
}
