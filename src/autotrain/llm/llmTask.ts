import type { AnswerSource } from '../../contract/autotrain';
import { chatComplete, type ChatMessage } from './chat';
import { extractJson } from './jsonExtract';
import type { LlmEndpoint, TextGenContext } from './textgen';

/** Thrown by a task's parser when the model's answer cannot be used; the message says why. */
export class UnusableAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnusableAnswerError';
  }
}

/**
 * Asks the model and parses its answer: the first of the returned choices that parses wins. When none does, the
 * model is asked once more with the parse error, then the last error is thrown.
 */
export async function askModel<T>(
  llm: LlmEndpoint,
  messages: ChatMessage[],
  parse: (text: string) => T,
  options: { json: boolean; signal?: AbortSignal },
): Promise<T> {
  let conversation = messages;
  let lastError = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await chatComplete(llm, conversation, options);
    for (const content of answer.contents) {
      try {
        return parse(content);
      } catch (err) {
        lastError = (err as Error).message;
      }
    }
    conversation = [
      ...messages,
      { role: 'assistant', content: answer.contents[0] ?? '' },
      {
        role: 'user',
        content: `That answer could not be used: ${lastError}. ${options.json ? 'Return only valid JSON in the requested shape, with no prose.' : 'Return only the complete program in one fenced python block.'}`,
      },
    ];
  }
  throw new UnusableAnswerError(lastError);
}

/** Asks with one system and one user message for a JSON answer, which `validate` checks (throwing UnusableAnswerError). */
export function askJson<T>(llm: LlmEndpoint, system: string, user: unknown, validate: (value: unknown) => T, signal?: AbortSignal): Promise<T> {
  return askModel(
    llm,
    [
      { role: 'system', content: system },
      { role: 'user', content: JSON.stringify(user) },
    ],
    (text) => validate(extractJson(text)),
    { json: true, signal },
  );
}

export interface Sourced<T> {
  value: T;
  source: AnswerSource;
  warnings: string[];
}

/**
 * Runs the LLM path when the context has an endpoint and falls back to the rules (with a warning naming the
 * reason) when the call or its answer fails. Without an endpoint only the rules run.
 */
export async function withRulesFallback<T>(
  ctx: TextGenContext,
  operation: string,
  llmPath: (llm: LlmEndpoint) => Promise<T>,
  rulesPath: () => T | Promise<T>,
): Promise<Sourced<T>> {
  if (!ctx.llm) return { value: await rulesPath(), source: 'rules', warnings: [...ctx.warnings] };
  try {
    return { value: await llmPath(ctx.llm), source: 'llm', warnings: [...ctx.warnings] };
  } catch (err) {
    const reason = (err as Error).message;
    return {
      value: await rulesPath(),
      source: 'rules',
      warnings: [...ctx.warnings, `${operation}: the text generation answer could not be used (${reason}); answered from rules.`],
    };
  }
}

const MAX_TEXT = 60;

/** The summary as compact JSON for prompts: at most 3 samples, long strings cut. */
export function compactFields(fields: readonly { column: string; properties: Record<string, unknown> }[], missing: Record<string, number>): unknown[] {
  return fields.map((f) => {
    const p = f.properties;
    const cut = (v: unknown): unknown => (typeof v === 'string' && v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v);
    return {
      column: f.column,
      dtype: p.dtype,
      semantic_type: p.semantic_type,
      num_unique_values: p.num_unique_values,
      missing: missing[f.column] ?? 0,
      samples: (p.samples as unknown[]).slice(0, 3).map(cut),
      ...(p.min !== undefined ? { min: p.min, max: p.max } : {}),
    };
  });
}
