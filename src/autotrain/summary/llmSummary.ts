import type { DatasetSummary } from '../../contract/autotrain';
import { asList } from '../llm/jsonExtract';
import { askJson, compactFields, UnusableAnswerError, withRulesFallback } from '../llm/llmTask';
import type { LlmEndpoint, TextGenContext } from '../llm/textgen';

const FIELDS_PER_CALL = 30;
const GENERIC_SEMANTICS = new Set(['number', 'category', 'text']);

interface Enrichment {
  dataset_description: string | null;
  fields: Map<string, { semantic_type?: string; description?: string }>;
}

const SYSTEM = [
  'You are an experienced data analyst. You annotate a dataset summary.',
  'For every field give a one- or two-word semantic_type (for example company, city, gender, latitude, url, zip code,',
  'email, price, count, date, category) and a one-sentence description of what the column holds.',
  'Also give a two-sentence dataset_description. Use the exact column names given.',
  'Answer with JSON only: {"dataset_description": string, "fields": [{"column": string, "semantic_type": string, "description": string}]}.',
].join(' ');

function validateEnrichment(columns: readonly string[]): (value: unknown) => Enrichment {
  return (value) => {
    const known = new Set(columns);
    const fields = new Map<string, { semantic_type?: string; description?: string }>();
    for (const item of asList(value)) {
      const f = item as { column?: unknown; semantic_type?: unknown; description?: unknown };
      if (typeof f?.column !== 'string' || !known.has(f.column)) continue;
      fields.set(f.column, {
        ...(typeof f.semantic_type === 'string' && f.semantic_type.trim() ? { semantic_type: f.semantic_type.trim().toLowerCase() } : {}),
        ...(typeof f.description === 'string' && f.description.trim() ? { description: f.description.trim() } : {}),
      });
    }
    if (fields.size === 0) throw new UnusableAnswerError(`no field names one of the columns ${columns.join(', ')}`);
    const description = (value as { dataset_description?: unknown })?.dataset_description;
    return { dataset_description: typeof description === 'string' && description.trim() ? description.trim() : null, fields };
  };
}

async function enrichWithModel(llm: LlmEndpoint, summary: DatasetSummary, signal?: AbortSignal): Promise<DatasetSummary> {
  const merged = new Map<string, { semantic_type?: string; description?: string }>();
  let description: string | null = null;
  for (let start = 0; start < summary.fields.length; start += FIELDS_PER_CALL) {
    const chunk = summary.fields.slice(start, start + FIELDS_PER_CALL);
    const user = {
      name: summary.name,
      rows: summary.rows,
      fields: compactFields(chunk, summary.missing_values),
    };
    const answer = await askJson(llm, SYSTEM, user, validateEnrichment(chunk.map((f) => f.column)), signal);
    description ??= answer.dataset_description;
    for (const [column, value] of answer.fields) merged.set(column, value);
  }
  return {
    ...summary,
    dataset_description: description ?? summary.dataset_description,
    fields: summary.fields.map((f) => {
      const { semantic_type, description } = merged.get(f.column) ?? {};
      // Specific rule types (id, date, email…) drive label and step rules, so the model may only refine generic ones.
      const semantic = semantic_type && GENERIC_SEMANTICS.has(f.properties.semantic_type) ? semantic_type : f.properties.semantic_type;
      return { column: f.column, properties: { ...f.properties, semantic_type: semantic, description: description ?? f.properties.description } };
    }),
  };
}

/** Lets the model fill descriptions and semantic types; dtypes and statistics always stay the rules' values. */
export async function enrichSummary(summary: DatasetSummary, ctx: TextGenContext): Promise<DatasetSummary> {
  const result = await withRulesFallback(ctx, 'summary enrichment', (llm) => enrichWithModel(llm, summary, ctx.signal), () => summary);
  return result.warnings.length ? { ...result.value, warnings: result.warnings } : result.value;
}
