import type { DatasetSummaryArgs, SummaryAction } from '../views/protocol';

/** The command an action of the dataset summary panel runs, with its argument. */
export function summaryActionCommand(args: DatasetSummaryArgs, action: SummaryAction): [string, unknown] {
  const { summary, dataPath } = args;
  switch (action.action) {
    case 'trainWithLabel':
      return ['xmodels.autotrain.trainWithLabel', { summary, label: action.label }];
    case 'visualizeGoal':
      return ['xmodels.autotrain.visualizeGoal', { summary, goal: action.goal, ...(dataPath ? { dataPath } : {}) }];
    case 'createPreprocessor':
      return ['xmodels.preprocessors.createFromSteps', { summary, steps: action.steps }];
  }
}
