import type { ChartSpec, DatasetSummary, Goal, Insight, Label, Recommendation } from '../contract/autotrain';
import type { DataFrame } from '../engine';
import { ruleRecommendations } from './features/featureRules';
import { ruleGoals } from './goals/goalRules';
import { ruleInsights } from './insights/insightRules';
import { rankLabelCandidates } from './labels/labelRules';
import { scarceClasses, type ScarceClass } from './labels/trainingSplit';
import { chartSpec } from './viz/chart';
import type { ChartPlan, ResolvedGoal } from './viz/plan';

/** A rule that reads a dataset's rows, with its inputs: plain data, so it can be sent to where the rows are. */
export type RowRuleRequest =
  | { rule: 'goals'; summary: DatasetSummary; persona?: string }
  | { rule: 'label-ranking'; summary: DatasetSummary }
  /** The scarce classes of each named column the rows hold. */
  | { rule: 'scarce-classes'; columns: string[] }
  | { rule: 'recommendations'; summary: DatasetSummary }
  | { rule: 'chart'; plan: ChartPlan; title: string }
  | { rule: 'insights'; summary: DatasetSummary; resolved: ResolvedGoal };

interface RowRuleAnswers {
  goals: Goal[];
  'label-ranking': Label[];
  'scarce-classes': Record<string, ScarceClass[]>;
  recommendations: Recommendation[];
  chart: ChartSpec;
  insights: Insight[];
}

export type RowRuleAnswer<R extends RowRuleRequest> = RowRuleAnswers[R['rule']];

function answer(request: RowRuleRequest, frame: DataFrame | undefined): RowRuleAnswers[keyof RowRuleAnswers] {
  switch (request.rule) {
    case 'goals':
      return ruleGoals(request.summary, frame, request.persona);
    case 'label-ranking':
      return rankLabelCandidates(request.summary, frame);
    case 'scarce-classes':
      return Object.fromEntries(request.columns.filter((c) => frame?.has(c)).map((c) => [c, scarceClasses(frame as DataFrame, c)]));
    case 'recommendations':
      return ruleRecommendations(request.summary, frame);
    case 'chart':
      return chartSpec(request.plan, request.title, frame);
    case 'insights':
      return ruleInsights(request.summary, request.resolved, frame);
  }
}

/** The rule's answer computed from `frame` (from the summary alone without one). */
export function answerFromRows<R extends RowRuleRequest>(request: R, frame: DataFrame | undefined): RowRuleAnswer<R> {
  return answer(request, frame) as RowRuleAnswer<R>;
}

/**
 * A dataset's rows as the rules see them. The service answers on its worker pool, where the stored frame is read,
 * so no rule over a large dataset runs on the request thread.
 */
export interface Rows {
  /** False when the rows are unknown: the rules then answer from the summary alone. */
  readonly available: boolean;
  answer<R extends RowRuleRequest>(request: R): Promise<RowRuleAnswer<R>>;
}

/** Rows answered in place from a frame in memory (or from the summary alone without one). */
function frameRows(frame: DataFrame | undefined): Rows {
  return { available: frame !== undefined, answer: (request) => Promise.resolve(answerFromRows(request, frame)) };
}

/** The rows behind a frame, or rows answered elsewhere, as given. */
export function rowsOf(source: DataFrame | Rows | undefined): Rows {
  return source !== undefined && 'answer' in source ? source : frameRows(source);
}
