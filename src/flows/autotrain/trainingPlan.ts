import type {
  AutotrainApi, PreprocessorsApi, StartAutotrainParams, TrainManualParams,
} from '../../client';
import { UserFacingError } from '../../common/errors';
import type { AutotrainResponse, DatasetSummary, Goal, Label, Recommendation } from '../../contract/autotrain';
import type { CreatePreprocessorRequest, PreprocessorStep } from '../../contract/datasets';
import { l10n } from '../../l10n/l10n';

/** Everything the autotrain wizard collected. */
export interface AutotrainChoices {
  readonly summary: DatasetSummary;
  readonly label: Label;
  /** The label has classes too rare to train and their rows are left out (rare_classes "drop"). */
  readonly dropRareClasses: boolean;
  readonly goals: readonly Goal[];
  /** What the service recommended, and the subset the user kept. */
  readonly recommendations: readonly Recommendation[];
  readonly selected: readonly Recommendation[];
  readonly modelName: string;
  readonly description: string;
}

/**
 * How the choices reach the service. start_autotrain has no steps field and applies the service's own
 * recommendations (plus a parameter search), so it is used when the user kept every recommendation. Any other
 * selection becomes a preprocessor with exactly the chosen steps, trained with train_manual.
 */
export type TrainingPlan =
  | { readonly kind: 'autotrain'; readonly request: StartAutotrainParams }
  | {
      readonly kind: 'manual';
      readonly preprocessor: CreatePreprocessorRequest;
      readonly train: Omit<TrainManualParams, 'preprocessor_id' | 'version_id'>;
    };

/** The client calls a plan needs. */
export interface TrainingClient {
  readonly autotrain: Pick<AutotrainApi, 'startAutotrain' | 'trainManual'>;
  readonly preprocessors: Pick<PreprocessorsApi, 'create'>;
}

function stepColumns(step: PreprocessorStep): string[] {
  switch (step.type) {
    case 'drop_columns': return step.columns;
    case 'ratio': return [step.numerator, step.denominator];
    default: return [step.column];
  }
}

/**
 * The recommendations that can apply once the label is chosen: a step on the label column is left out, and the
 * label is removed from a column drop (as the service does when autotrain applies its recommendations).
 */
export function recommendationsFor(recommendations: readonly Recommendation[], label: string): Recommendation[] {
  return recommendations.flatMap((rec): Recommendation[] => {
    if (rec.step.type === 'drop_columns') {
      const columns = rec.step.columns.filter((column) => column !== label);
      if (columns.length === 0) return [];
      return columns.length === rec.step.columns.length ? [rec] : [{ ...rec, step: { ...rec.step, columns } }];
    }
    return stepColumns(rec.step).includes(label) ? [] : [rec];
  });
}

export function keepsEveryRecommendation(choices: Pick<AutotrainChoices, 'recommendations' | 'selected'>): boolean {
  return choices.recommendations.every((rec) => choices.selected.some((s) => s.index === rec.index));
}

/** The chosen steps in the service's recommended order. */
export function chosenSteps(choices: Pick<AutotrainChoices, 'recommendations' | 'selected'>): PreprocessorStep[] {
  return choices.recommendations
    .filter((rec) => choices.selected.some((s) => s.index === rec.index))
    .map((rec) => rec.step);
}

export function planTraining(choices: AutotrainChoices, textgen_config: StartAutotrainParams['textgen_config']): TrainingPlan {
  const model_name = choices.modelName.trim();
  const model_description = choices.description.trim();
  const rare = choices.dropRareClasses ? { rare_classes: 'drop' as const } : {};
  if (keepsEveryRecommendation(choices)) {
    return {
      kind: 'autotrain',
      request: {
        model_name,
        model_description,
        summary: choices.summary,
        textgen_config,
        label: choices.label.column,
        model_type: choices.label.model_type,
        ...rare,
      },
    };
  }
  const datasetId = choices.summary.dataset_id;
  if (!datasetId) {
    throw new UserFacingError(
      l10n.t(
        'The dataset {0} has no dataset id on this service, so a custom set of feature-engineering steps cannot be applied. Keep every recommendation selected to let autotrain choose.',
        choices.summary.file_name,
      ),
    );
  }
  return {
    kind: 'manual',
    preprocessor: {
      name: `${model_name} preprocessing`,
      description: l10n.t('Feature engineering chosen for {0} on {1}.', model_name, choices.summary.file_name),
      dataset_id: datasetId,
      steps: chosenSteps(choices),
    },
    train: { label: choices.label.column, model_name, model_description, model_type: choices.label.model_type, ...rare },
  };
}

/** Starts the job the plan describes: autotrain directly, or a preprocessor first and then train_manual. */
export async function startTraining(client: TrainingClient, plan: TrainingPlan, signal?: AbortSignal): Promise<AutotrainResponse> {
  if (plan.kind === 'autotrain') return client.autotrain.startAutotrain(plan.request, { signal });
  const { preprocessor_id, version_id } = await client.preprocessors.create(plan.preprocessor, { signal });
  return client.autotrain.trainManual({ ...plan.train, preprocessor_id, version_id }, { signal });
}
