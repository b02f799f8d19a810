import type { DatasetSummary, GoalInput, Insight, Insights } from '../../contract/autotrain';
import type { DataFrame } from '../../engine';
import { asList } from '../llm/jsonExtract';
import { askJson, UnusableAnswerError, withRulesFallback } from '../llm/llmTask';
import { rowsOf, type Rows } from '../rows';
import type { LlmEndpoint, TextGenContext } from '../llm/textgen';
import { resolveGoal } from '../viz/plan';

const SYSTEM = [
  'You are a data analyst writing for a business audience. Rephrase each computed fact about a dataset so it reads clearly.',
  'Keep every fact, keep their order, and never add, change or round differently any number: use only numbers that appear in the fact.',
  'Answer with JSON only: {"insights": [{"title": string, "detail": string}]}, one entry per fact.',
].join(' ');

const NUMBER_RE = /-?\d+(?:\.\d+)?/g;

function numbersIn(text: string): Set<string> {
  const plain = text.replace(/(\d),(?=\d{3}\b)/g, '$1');
  return new Set([...plain.matchAll(NUMBER_RE)].map((m) => String(Number(m[0]))));
}

/** The model's rewording, accepted only when it keeps the facts' count and adds no number they do not hold. */
function validateRephrasing(facts: Insight[]): (value: unknown) => Insight[] {
  return (value) => {
    const items = asList(value);
    if (items.length !== facts.length) throw new UnusableAnswerError(`expected ${facts.length} insights, got ${items.length}`);
    return facts.map((fact, i) => {
      const item = items[i] as { title?: unknown; detail?: unknown };
      if (typeof item?.title !== 'string' || typeof item.detail !== 'string' || !item.detail.trim()) {
        throw new UnusableAnswerError(`insight ${i + 1} lacks title or detail text`);
      }
      const allowed = numbersIn(`${fact.title} ${fact.detail} ${Object.values(fact.evidence).join(' ')}`);
      const added = [...numbersIn(`${item.title} ${item.detail}`)].filter((n) => !allowed.has(n));
      if (added.length) throw new UnusableAnswerError(`insight ${i + 1} adds numbers that were not computed (${added.join(', ')})`);
      return { ...fact, title: item.title.trim(), detail: item.detail.trim() };
    });
  };
}

function rephrase(llm: LlmEndpoint, question: string, facts: Insight[], signal?: AbortSignal): Promise<Insight[]> {
  if (!facts.length) return Promise.resolve(facts);
  const user = { goal: question, facts: facts.map((f) => ({ title: f.title, detail: f.detail })) };
  return askJson(llm, SYSTEM, user, validateRephrasing(facts), signal);
}

/**
 * Insights on the goal's columns with computed evidence (autotrain.md §7.6). A model may only reword them. Throws
 * AutotrainInputError when the goal names no column of the dataset.
 */
export async function generateInsights(goal: GoalInput, summary: DatasetSummary, frame: DataFrame | Rows | undefined, ctx: TextGenContext): Promise<Insights> {
  const resolved = resolveGoal(summary, goal);
  const rows = rowsOf(frame);
  const facts = await rows.answer({ rule: 'insights', summary, resolved });
  const result = await withRulesFallback(ctx, 'insights', (llm) => rephrase(llm, resolved.goal.question, facts, ctx.signal), () => facts);
  const warnings = rows.available ? result.warnings : [...result.warnings, 'The dataset rows were not available, so the insights rest on the summary statistics only.'];
  return { goal: resolved.goal, insights: result.value, source: result.source, warnings };
}
