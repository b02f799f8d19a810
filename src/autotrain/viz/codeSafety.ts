/**
 * An allowlist check of model-written chart code on its tokens, so that words inside strings (a title that mentions
 * `os.system`) never count and code cannot hide behind spacing, aliases or comments. The product never runs the code;
 * the user will, so anything that reaches beyond drawing a chart from `data` is refused.
 */

export type TokenKind = 'name' | 'string' | 'number' | 'op' | 'newline';

export interface Token {
  kind: TokenKind;
  text: string;
  line: number;
}

/** Modules a chart program may import (the first dotted part). */
export const ALLOWED_MODULES = new Set(['pandas', 'numpy', 'plotly', 'matplotlib', 'seaborn']);

/** Names that run code, reach the file system, the network or the interpreter, wherever they appear. */
const FORBIDDEN_NAMES = new Set([
  'open', 'exec', 'eval', 'compile', 'getattr', 'setattr', 'delattr', 'globals', 'locals', 'vars', 'input', 'breakpoint',
  'os', 'sys', 'subprocess', 'socket', 'shutil', 'pathlib', 'urllib', 'importlib', 'builtins', 'requests', 'http', 'ctypes',
  'ctypeslib', 'pickle', 'webbrowser', 'f2py', 'distutils', 'system', 'popen',
  // file and network reads or writes through the allowed libraries
  'load', 'save', 'savez', 'savez_compressed', 'loadtxt', 'savetxt', 'genfromtxt', 'fromfile', 'tofile', 'memmap', 'DataSource',
  'imread', 'imsave', 'savefig', 'load_dataset', 'get_data_home', 'query',
  'to_csv', 'to_pickle', 'to_excel', 'to_json', 'to_parquet', 'to_sql', 'to_hdf', 'to_feather', 'to_html', 'to_latex',
  'to_markdown', 'to_clipboard', 'to_stata', 'to_xml', 'to_orc', 'to_gbq',
]);
const FORBIDDEN_PREFIXES = ['read_', 'write_'];

const STRING_PREFIX = /^(?:[rRbBuU]|[fF][rR]?|[rR][fFbB]|[bB][rR])?$/;
const NAME_START = /[A-Za-z_\u00c0-\uffff]/;
const NAME_PART = /[A-Za-z0-9_\u00c0-\uffff]/;
const OPERATORS = ['**=', '//=', '>>=', '<<=', '...', '->', ':=', '**', '//', '==', '!=', '<=', '>=', '<<', '>>', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@='];

export class CodeSyntaxError extends Error {}

/** The `{…}` expressions inside an f-string body (doubled braces are literal). */
function fStringExpressions(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (depth === 0 && ch === '{' && body[i + 1] === '{') i++;
    else if (ch === '{') {
      if (depth++ === 0) start = i + 1;
    } else if (ch === '}' && depth > 0 && --depth === 0) out.push(body.slice(start, i));
  }
  return out;
}

/** Python tokens of a program; f-string expressions are tokenized as code. Throws CodeSyntaxError on an unterminated string. */
export function tokenize(code: string, firstLine = 1): Token[] {
  const tokens: Token[] = [];
  let line = firstLine;
  let i = 0;
  while (i < code.length) {
    const ch = code[i];
    if (ch === '\n') {
      tokens.push({ kind: 'newline', text: '\n', line });
      line++;
      i++;
    } else if (ch === '#') {
      while (i < code.length && code[i] !== '\n') i++;
    } else if (ch === '\\' && code[i + 1] === '\n') {
      line++;
      i += 2;
    } else if (/\s/.test(ch)) {
      i++;
    } else if (ch === '"' || ch === "'" || (NAME_START.test(ch) && stringStart(code, i) !== null)) {
      const prefixEnd = ch === '"' || ch === "'" ? i : (stringStart(code, i) as number);
      const prefix = code.slice(i, prefixEnd);
      const quote = code.startsWith(code[prefixEnd].repeat(3), prefixEnd) ? code[prefixEnd].repeat(3) : code[prefixEnd];
      let j = prefixEnd + quote.length;
      while (j < code.length && !code.startsWith(quote, j)) {
        if (code[j] === '\\') {
          j += 2;
          continue;
        }
        if (code[j] === '\n' && quote.length === 1) throw new CodeSyntaxError(`line ${line}: a string is not closed`);
        j++;
      }
      if (j >= code.length) throw new CodeSyntaxError(`line ${line}: a string is not closed`);
      const body = code.slice(prefixEnd + quote.length, j);
      tokens.push({ kind: 'string', text: code.slice(i, j + quote.length), line });
      if (/[fF]/.test(prefix)) for (const expr of fStringExpressions(body)) for (const t of tokenize(expr, line)) if (t.kind !== 'newline') tokens.push(t);
      line += (body.match(/\n/g) ?? []).length;
      i = j + quote.length;
    } else if (NAME_START.test(ch)) {
      let j = i + 1;
      while (j < code.length && NAME_PART.test(code[j])) j++;
      tokens.push({ kind: 'name', text: code.slice(i, j), line });
      i = j;
    } else if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(code[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < code.length && /[0-9A-Za-z_.]/.test(code[j])) j++;
      tokens.push({ kind: 'number', text: code.slice(i, j), line });
      i = j;
    } else {
      const op = OPERATORS.find((o) => code.startsWith(o, i)) ?? ch;
      tokens.push({ kind: 'op', text: op, line });
      i += op.length;
    }
  }
  return tokens;
}

/** Where a string's quote starts when the name-like text at `i` is a string prefix (`f"`, `rb'`), else null. */
function stringStart(code: string, i: number): number | null {
  let j = i;
  while (j < code.length && j - i < 3 && /[A-Za-z]/.test(code[j])) j++;
  if (code[j] !== '"' && code[j] !== "'") return null;
  return STRING_PREFIX.test(code.slice(i, j)) ? j : null;
}

/** The dotted module names of every import statement. */
function importedModules(tokens: Token[]): { module: string; line: number }[] {
  const out: { module: string; line: number }[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    const statementStart = k === 0 || tokens[k - 1].kind === 'newline' || tokens[k - 1].text === ';';
    if (t.kind !== 'name' || !statementStart) continue;
    if (t.text === 'from') {
      let module = '';
      for (let j = k + 1; j < tokens.length && tokens[j].text !== 'import' && tokens[j].kind !== 'newline'; j++) module += tokens[j].text;
      out.push({ module, line: t.line });
    } else if (t.text === 'import') {
      let module = '';
      let skipAlias = false;
      for (let j = k + 1; j < tokens.length && tokens[j].kind !== 'newline' && tokens[j].text !== ';'; j++) {
        const part = tokens[j];
        if (part.text === ',') {
          if (module) out.push({ module, line: t.line });
          module = '';
          skipAlias = false;
        } else if (part.text === 'as') skipAlias = true;
        else if (!skipAlias && part.text !== '(' && part.text !== ')') module += part.text;
      }
      if (module) out.push({ module, line: t.line });
    }
  }
  return out;
}

/** Why the program may not be handed to the user, or an empty list when it only draws a chart. */
export function unsafeConstructs(code: string): string[] {
  let tokens: Token[];
  try {
    tokens = tokenize(code);
  } catch (error) {
    return [`it cannot be read as Python (${(error as Error).message})`];
  }
  const problems = new Set<string>();
  for (const { module, line } of importedModules(tokens)) {
    if (!ALLOWED_MODULES.has(module.split('.')[0])) problems.add(`line ${line} imports ${module || 'a relative module'}, which is not one of ${[...ALLOWED_MODULES].join(', ')}`);
  }
  for (const t of tokens) {
    if (t.kind !== 'name') continue;
    if (/^__\w*__$/.test(t.text)) problems.add(`line ${t.line} uses the dunder name ${t.text}`);
    else if (FORBIDDEN_NAMES.has(t.text) || FORBIDDEN_PREFIXES.some((p) => t.text.startsWith(p))) {
      problems.add(`line ${t.line} uses ${t.text}, which reaches beyond drawing a chart`);
    }
  }
  return [...problems];
}
