/** Robust extraction of a JSON value from a model's free-text answer (autotrain.md §7.8). */

export class JsonExtractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonExtractError';
  }
}

function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, '').replace(/<think>[\s\S]*$/i, '');
}

/** Fenced blocks, ```json ones first. */
function fencedBlocks(text: string): string[] {
  const blocks: { lang: string; body: string }[] = [];
  const fence = /```([a-zA-Z0-9_-]*)[^\n]*\n([\s\S]*?)```/g;
  for (let m = fence.exec(text); m; m = fence.exec(text)) blocks.push({ lang: m[1].toLowerCase(), body: m[2] });
  return [...blocks.filter((b) => b.lang === 'json'), ...blocks.filter((b) => b.lang !== 'json')].map((b) => b.body);
}

/** The first balanced `[…]` or `{…}`, skipping brackets inside strings. */
function firstBalanced(text: string): string | null {
  const start = text.search(/[[{]/);
  if (start < 0) return null;
  const stack: string[] = [];
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{') stack.push(ch === '[' ? ']' : '}');
    else if (ch === ']' || ch === '}') {
      if (stack.pop() !== ch) return null;
      if (stack.length === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

const PYTHON_LITERALS: Record<string, string> = { True: 'true', False: 'false', None: 'null' };

/** Mild repairs outside strings: smart quotes, single-quoted strings, Python literals, trailing commas. */
function repairJson(text: string): string {
  const src = text.replace(/[\u201c\u201d]/g, '"');
  let out = '';
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === '"' || ch === "'" || ch === '\u2018') {
      const close = ch === '\u2018' ? '\u2019' : ch;
      let body = '';
      let j = i + 1;
      for (; j < src.length && src[j] !== close; j++) {
        if (src[j] === '\\' && j + 1 < src.length) body += src[j] + src[++j];
        else body += src[j];
      }
      out += ch === '"' ? `"${body}"` : JSON.stringify(body.replace(/\\'/g, "'"));
      i = j;
    } else if (/[A-Za-z]/.test(ch)) {
      const word = /^[A-Za-z]+/.exec(src.slice(i))![0];
      out += PYTHON_LITERALS[word] ?? word;
      i += word.length - 1;
    } else if (ch === ',' && /^\s*[}\]]/.test(src.slice(i + 1))) {
      continue;
    } else out += ch;
  }
  return out;
}

function parseLenient(candidate: string): unknown {
  try {
    return JSON.parse(candidate);
  } catch {
    return JSON.parse(repairJson(candidate));
  }
}

/** Parses the first JSON value found in `text`; throws JsonExtractError saying why none was found. */
export function extractJson(text: string): unknown {
  const cleaned = stripThinking(text).trim();
  const candidates = [...fencedBlocks(cleaned).map((b) => b.trim()), cleaned];
  let lastError = 'the answer holds no JSON object or list';
  for (const candidate of candidates) {
    const pieces = [candidate, firstBalanced(candidate)].filter((p): p is string => !!p);
    for (const piece of pieces) {
      try {
        return parseLenient(piece);
      } catch (err) {
        lastError = `the answer is not valid JSON (${(err as Error).message})`;
      }
    }
  }
  throw new JsonExtractError(lastError);
}

const LIST_KEYS = ['goals', 'labels', 'recommendations', 'items', 'data', 'results', 'fields', 'insights'];

/** Unwraps `{goals|items|labels|data: [...]}` and wraps a lone object in a list. */
export function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of LIST_KEYS) if (Array.isArray(obj[key])) return obj[key] as unknown[];
    const arrays = Object.values(obj).filter(Array.isArray);
    if (arrays.length === 1) return arrays[0] as unknown[];
    return [value];
  }
  throw new JsonExtractError('the answer is JSON but neither a list nor an object');
}
