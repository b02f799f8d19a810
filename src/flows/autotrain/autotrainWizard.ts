import { UserFacingError } from '../../common/errors';
import type { DatasetSummary, Goal, Label, RareLabelClass, Recommendation } from '../../contract/autotrain';
import { defaultModelDescription, defaultModelName, fileBaseName, validateName } from './modelNaming';
import { columnItems, goalItems, labelItems, recommendationItems, shapeText } from './pickItems';
import { BACK, type PickItem, type PromptPosition, type Prompter } from '../../prompts/prompter';
import { keepsEveryRecommendation, recommendationsFor, type AutotrainChoices } from './trainingPlan';
import { applyAnswer, runSteps, sequence, type Outcome } from '../../prompts/steps';
import { l10n } from '../../l10n/l10n';

/** The service's answers the wizard shows; each promise is awaited (with a busy prompt) by the step that needs it. */
export interface AutotrainData {
  readonly fileName: string;
  readonly summary: Promise<DatasetSummary>;
  readonly labels: Promise<readonly Label[]>;
  readonly goals: Promise<readonly Goal[]>;
  readonly recommendations: Promise<readonly Recommendation[]>;
}

/** One prompt of the wizard: asks, and on an answer stores it in the wizard's state. */
interface WizardStep {
  readonly id: string;
  run(state: WizardState, position: PromptPosition): Promise<Outcome>;
}

interface WizardState {
  summary?: DatasetSummary;
  label?: Label;
  /** Set when the label has classes too rare to train and the user chose to leave out their rows. */
  dropRareClasses?: boolean;
  goals?: Goal[];
  recommendations?: readonly Recommendation[];
  selected?: Recommendation[];
  modelName?: string;
  description?: string;
}

function summaryStep(prompter: Prompter, data: AutotrainData): WizardStep {
  return {
    id: 'summary',
    async run(state, position) {
      const items = data.summary.then((summary): PickItem<DatasetSummary>[] => [
        { label: l10n.t('$(arrow-right) Continue'), description: shapeText(summary), detail: summary.dataset_description, value: summary },
        ...columnItems(summary).map((item) => ({ ...item, value: summary })),
      ]);
      const answer = await prompter.pickOne({
        id: 'summary', position, items,
        placeholder: l10n.t('Columns of {0}: press Enter to choose the label', fileBaseName(data.fileName)),
      });
      return applyAnswer(answer, (summary) => { state.summary = summary; });
    },
  };
}

function labelStep(prompter: Prompter, data: AutotrainData): WizardStep {
  return {
    id: 'label',
    async run(state, position) {
      for (;;) {
        const items = data.labels.then((labels) => {
          if (labels.length === 0) {
            throw new UserFacingError(l10n.t('No column of {0} can serve as a label (IDs, constants, dates, free text and categories of more than 50 classes are left out). Add a target column to the CSV and try again.', fileBaseName(data.fileName)));
          }
          return labelItems(labels, state.label);
        });
        const answer = await prompter.pickOne({ id: 'label', position, items, placeholder: l10n.t('Which column should the model predict?') });
        const outcome = applyAnswer(answer, (label) => {
          if (state.label?.column !== label.column) state.description = undefined;
          state.label = label;
        });
        if (outcome !== 'next') return outcome;
        const rare = required(state.label).rare_classes ?? [];
        state.dropRareClasses = rare.length > 0;
        if (rare.length === 0) return outcome;
        const leave = await askLeaveOutRareClasses(prompter, position, required(state.label).column, rare);
        if (leave !== BACK) return leave;
      }
    },
  };
}

/** `1 row of class '.'`, `12 rows of classes 'a', 'b'`. */
export function rareClassesText(rare: readonly RareLabelClass[]): string {
  const rows = rare.reduce((n, c) => n + c.rows, 0);
  const classes = rare.map((c) => `'${c.class}'`).join(', ');
  return rows === 1 ? l10n.t('1 row of class {0}', classes) : l10n.t('{0} rows of class(es) {1}', rows, classes);
}

/**
 * Autotrain fits a class only with at least 2 training rows: the label's rarer classes can only be left out. Back
 * returns to the label list to choose another.
 */
async function askLeaveOutRareClasses(prompter: Prompter, position: PromptPosition, column: string, rare: readonly RareLabelClass[]): Promise<Outcome> {
  const answer = await prompter.pickOne({
    id: 'rareClasses',
    position,
    placeholder: l10n.t('{0} has classes too rare to train (fewer than 2 training rows): leave out their rows, or go Back to choose another label', column),
    items: [
      {
        label: l10n.t('$(check) Leave out {0}', rareClassesText(rare)),
        detail: l10n.t('Those rows are left out of training and testing, as if their {0} were missing.', column),
        value: true,
      },
    ],
  });
  return applyAnswer(answer, () => undefined);
}

function goalsStep(prompter: Prompter, data: AutotrainData): WizardStep {
  return {
    id: 'goals',
    async run(state, position) {
      const items = data.goals.then((goals) => goalItems(goals, state.goals));
      const answer = await prompter.pickMany({
        id: 'goals', position, items,
        placeholder: l10n.t('Questions worth exploring (optional): the ones you pick go into the model description'),
      });
      return applyAnswer(answer, (goals) => {
        if (!sameIndexes(goals, state.goals)) state.description = undefined;
        state.goals = goals;
      });
    },
  };
}

function featuresStep(prompter: Prompter, data: AutotrainData): WizardStep {
  return {
    id: 'features',
    async run(state, position) {
      const items = data.recommendations.then((recommendations) => {
        state.recommendations = recommendationsFor(recommendations, required(state.label).column);
        return recommendationItems(state.recommendations, state.selected);
      });
      const answer = await prompter.pickMany({
        id: 'features', position, items,
        placeholder: l10n.t('Feature engineering to apply (all recommended steps are selected)'),
      });
      return applyAnswer(answer, (selected) => { state.selected = selected; });
    },
  };
}

function inputStep(
  prompter: Prompter,
  id: string,
  prompt: string,
  initial: (state: WizardState) => string,
  store: (state: WizardState, value: string) => void,
  validate?: (value: string) => string | undefined,
): WizardStep {
  return {
    id,
    async run(state, position) {
      const answer = await prompter.input({ id, position, prompt, value: initial(state), validate });
      return applyAnswer(answer, (value) => store(state, value));
    },
  };
}

function nameStep(prompter: Prompter, data: AutotrainData): WizardStep {
  return inputStep(prompter, 'name', l10n.t('Model name'),
    (state) => state.modelName ?? defaultModelName(data.fileName),
    (state, name) => { state.modelName = name.trim(); },
    validateName);
}

function descriptionStep(prompter: Prompter, data: AutotrainData): WizardStep {
  return inputStep(prompter, 'description', l10n.t('Model description (optional)'),
    (state) => state.description ?? defaultModelDescription(data.fileName, required(state.label), state.goals ?? []),
    (state, description) => { state.description = description; });
}

/** The confirmation row's detail: what will be trained and how the chosen steps reach the service. */
export function confirmationDetail(choices: Omit<AutotrainChoices, 'summary' | 'modelName' | 'description'>): string {
  const rare = choices.dropRareClasses ? (choices.label.rare_classes ?? []) : [];
  const left = rare.length ? l10n.t(', leaving out {0}', rareClassesText(rare)) : '';
  const label = `${l10n.t('Label {0} ({1})', choices.label.column, choices.label.model_type)}${left}`;
  const steps = `${choices.selected.length} of ${choices.recommendations.length} feature-engineering steps`;
  const how = keepsEveryRecommendation(choices)
    ? 'autotrain applies them and searches the training parameters'
    : 'trained from a new preprocessor with exactly these steps';
  return `${label} · ${steps}: ${how}`;
}

function confirmStep(prompter: Prompter): WizardStep {
  return {
    id: 'confirm',
    async run(state, position) {
      const detail = confirmationDetail({
        label: required(state.label), dropRareClasses: state.dropRareClasses ?? false, goals: state.goals ?? [],
        recommendations: state.recommendations ?? [], selected: state.selected ?? [],
      });
      const answer = await prompter.pickOne({
        id: 'confirm', position, placeholder: l10n.t('Train "{0}"?', String(state.modelName)),
        items: [{ label: l10n.t('$(play) Start training'), detail, value: true }],
      });
      return applyAnswer(answer, () => undefined);
    },
  };
}

function sameIndexes(a: readonly Goal[], b: readonly Goal[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((goal, i) => goal.index === b[i].index);
}

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error(l10n.t('The wizard reached a step before the one that sets its input.'));
  return value;
}

/**
 * Asks summary → label → goals → feature engineering → name → description → confirm, with Back on every step
 * after the first. Resolves to the choices, or undefined when the user dismissed a prompt.
 */
export async function collectAutotrainChoices(
  prompter: Prompter,
  data: AutotrainData,
): Promise<AutotrainChoices | undefined> {
  const steps = [
    summaryStep(prompter, data), labelStep(prompter, data), goalsStep(prompter, data),
    featuresStep(prompter, data), nameStep(prompter, data), descriptionStep(prompter, data), confirmStep(prompter),
  ];
  const state: WizardState = {};
  const title = l10n.t('Autotrain: {0}', fileBaseName(data.fileName));
  const finished = await runSteps(sequence(title, steps.map((step) => (position: PromptPosition) => step.run(state, position))));
  if (!finished) return undefined;
  return {
    summary: required(state.summary),
    label: required(state.label),
    dropRareClasses: state.dropRareClasses ?? false,
    goals: state.goals ?? [],
    recommendations: state.recommendations ?? [],
    selected: state.selected ?? [],
    modelName: required(state.modelName),
    description: state.description ?? '',
  };
}
