/**
 * Autotrain (autotrain.md §7), a part beside the engine that the service serves: dataset summaries, goals, labels, feature-engineering
 * recommendations, visualization code, insights and the training-parameter search. Every text operation answers
 * from deterministic rules unless the TextGenContext names an OpenAI-compatible endpoint; then it asks the model,
 * validates the answer against the summary, and falls back to rules with a warning.
 *
 *   summarizeDataset(frame, {dataset_id, name, file_name}, ctx): Promise<DatasetSummary>
 *     = completeSummary(summaryRules(frame), info, ctx): the rules part depends on the rows alone (cacheable)
 *   generateGoals(summary, n, ctx, {persona?, frame?}): Promise<GoalsResponse>       {goals, source, warnings}
 *   generateLabels(summary, ctx, frame?): Promise<LabelsResponse>                    {labels, source, warnings}
 *   generateFeatureEngineering(summary, n, ctx, {frame?}): Promise<FeatureEngineeringResponse>
 *   visualizeData(summary, goal, library, ctx, frame?, edit?): Promise<VisualizationResponse>  edit: "Fix this chart"
 *   generateInsights(goal, summary, frame | undefined, ctx): Promise<Insights>
 *   pickLabel(labels): Label | null                          the most confident label
 *   rankLabelCandidates(summary, frame?): Label[]             the rules' labels, best first
 *   canTrainTarget(modelType, distinctValues), targetModelType(field)   what the engine can train on a column
 *   scarceClassesText(scarce), scarceRowsText(scarce), AUTOTRAIN_SPLIT   classes too rare to fit among a train's training
 *     rows (autotrain's split by default), and their rows that rare_classes "drop" leaves out
 *   answerFromRows(request, frame): a RowRuleRequest's answer (goals, label ranking, scarce classes, recommendations,
 *     chart preview, insights) computed from a frame; what a Rows answers
 *   stepsFromRecommendations(recs, target?): PreprocessorStep[]  never touching the target
 *   searchParameters(trainFrame, {target, modelType, seed?, trials?, signal?, onProgress?, ...}): Promise<SearchResult>
 *   autotrainWork(summary, label?, modelType?): FitWork[]   the fits an autotrain job makes (its time estimate)
 *   resolveTextGen(config, env, overrides?): TextGenContext   RULES_CONTEXT when no provider is configured
 * visualizeData and generateInsights throw AutotrainInputError (→ 422) when the goal names no usable column.
 * Passing the dataset's rows (when the summary has a dataset_id) lets the rules compute from them: a frame in memory,
 * or Rows that answer each RowRuleRequest elsewhere (the service answers them on its worker pool with answerFromRows).
 */
export { resolveTextGen, RULES_CONTEXT } from './llm/textgen';
export type { TextGenContext, TextGenOverrides, LlmEndpoint, Env, Fetcher } from './llm/textgen';
export { ChatError } from './llm/chat';
export { completeSummary, summarizeDataset, summaryRules } from './summary/summary';
export { withWholeDataFacts, type WholeColumnFacts } from './summary/wholeData';
export type { DatasetInfo, SummaryRules } from './summary/summary';
export { answerFromRows } from './rows';
export type { RowRuleAnswer, RowRuleRequest, Rows } from './rows';
export { generateGoals } from './goals/goals';
export { generateLabels, pickLabel } from './labels/labels';
export { canTrainTarget, rankLabelCandidates, targetModelType } from './labels/labelRules';
export { AUTOTRAIN_SPLIT, scarceClassesText, scarceRowsText } from './labels/trainingSplit';
export { generateFeatureEngineering, stepsFromRecommendations } from './features/featureEngineering';
export { visualizeData } from './viz/visualize';
export { AutotrainInputError } from './viz/plan';
export { generateInsights } from './insights/insights';
export { searchParameters } from './search/parameterSearch';
export { AUTOTRAIN_RECOMMENDATIONS, autotrainWork, type FitWork } from './search/workload';
export type { SearchOptions, SearchResult, SearchTrial } from './search/parameterSearch';
