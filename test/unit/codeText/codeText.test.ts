import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Database } from 'node-sqlite3-wasm';
import { commentText } from '../../../src/codeText/comment';
import { markdownCode, markdownCodeBlock, markdownText, markupLines, markupText } from '../../../src/codeText/markup';
import { pyString } from '../../../src/codeText/python';
import { sqlName, sqlString } from '../../../src/codeText/sql';

/** Pieces that end strings, comments and lines, escape characters or reorder what an editor shows. */
const PIECES = ['"', "'", '"""', "'''", '\\', '\\N{X}', '\\x', '--', '/*', '*/', '#', ';', '\n', '\r', '\t', '\0', '\x1b', '\x7f', '\x85',
  '\u2028', '\u2029', '\u202e', '\u2066', '\u200f', '\ufeff', '\ud800', '\udfff', '\u{e0041}', '😀', 'é', 'a', ' ', '$', '{', '}'];

/** Deterministic strings of 0 to 11 pieces (a small linear congruential generator). */
function hostileStrings(count: number): string[] {
  let state = 20240601;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  return Array.from({ length: count }, () => Array.from({ length: next(12) }, () => PIECES[next(PIECES.length)]).join(''));
}

const TEXTS = [...PIECES, ...hostileStrings(400), Array.from({ length: 0x3100 }, (_, i) => String.fromCharCode(i)).join('')];
/** Characters that must not appear in generated code as they are. */
const HIDDEN = /[\p{Cc}\p{Cs}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;

function python(program: string, input: unknown): unknown {
  const run = spawnSync('python3', ['-c', program], { input: JSON.stringify(input), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

describe('names as text of generated code', () => {
  it('pyString writes one line that Python reads back as the same text, hiding nothing', () => {
    const literals = TEXTS.map(pyString);
    for (const literal of literals) assert.doesNotMatch(literal, HIDDEN, literal);
    const read = python('import ast, json, sys\nprint(json.dumps([ast.literal_eval(l) for l in json.load(sys.stdin)]))', literals);
    assert.deepEqual(read, TEXTS);
  });

  it('commentText is one line that ends no Python comment or raw docstring', () => {
    const comments = TEXTS.map(commentText);
    for (const comment of comments) {
      assert.doesNotMatch(comment, HIDDEN, comment);
      assert.doesNotMatch(comment, /"""|'''|--|\/\*|\*\//, comment);
    }
    const program = [
      'import ast, json, sys',
      'out = []',
      'for c in json.load(sys.stdin):',
      '    tree = ast.parse(f"# {c}\\nr\\"\\"\\"{c}\\n\\"\\"\\"\\nx = 1  # {c}\\n")',
      '    out.append([type(node).__name__ for node in tree.body] + [tree.body[0].value.value])',
      'print(json.dumps(out))',
    ].join('\n');
    assert.deepEqual(python(program, comments), comments.map((c) => ['Expr', 'Assign', `${c}\n`]));
  });

  it('commentText ends no SQL comment, and sqlString and sqlName read back as the same text', () => {
    const db = new Database(':memory:');
    try {
      // SQLite ends a statement at a NUL, and its UTF-8 text has no lone surrogates.
      for (const text of TEXTS.filter((t) => !/\0|\p{Cs}/u.test(t))) {
        const comment = commentText(text);
        const rows = db.all(`-- ${comment}\nSELECT /* ${comment} */ ${sqlString(text)} AS ${sqlName(text)} -- ${comment}\n, 1 AS one /* ${comment} */;`);
        assert.deepEqual(rows, [{ [text]: text, one: 1 }], JSON.stringify(text));
      }
    } finally {
      db.close();
    }
  });
});

describe('names as text of HTML, SVG and Markdown', () => {
  /** Texts without a character the writers show as an escape: those read back as themselves. */
  const SHOWN = TEXTS.filter((t) => !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\ufffe\uffff]/u.test(t));

  it('markupText opens no element, ends no attribute, hides nothing, and HTML reads it back as the same text', () => {
    for (const text of TEXTS) {
      const markup = markupText(text);
      assert.doesNotMatch(markup, /[<>"']|&(?!(amp|lt|gt|quot|#39);)/, markup);
      assert.doesNotMatch(markup, HIDDEN, markup);
      assert.doesNotMatch(markup, /[\ufffe\uffff]/u, 'XML allows neither');
    }
    assert.equal(markupText('a\u202eb\nc'), 'a\\u202eb\\nc');
    const read = python('import html, json, sys\nprint(json.dumps([html.unescape(t) for t in json.load(sys.stdin)]))', SHOWN.map(markupText));
    assert.deepEqual(read, SHOWN);
  });

  it('markupLines keeps the lines of code and escapes each as markupText does', () => {
    assert.equal(markupLines('x = "<a>"\n\ty & 1'), 'x = &quot;&lt;a&gt;&quot;\n\\ty &amp; 1');
  });

  it('markdownText leaves no ASCII punctuation bare: each is escaped by a backslash or written as an entity', () => {
    for (const text of TEXTS) {
      const markdown = markdownText(text);
      assert.doesNotMatch(markdown, HIDDEN, markdown);
      const bare = markdown.replace(/\\[!-/:-@[-`{-~]|&(amp|lt|gt);/g, '');
      assert.doesNotMatch(bare, /[!-/:-@[-`{-~]/, `${JSON.stringify(text)} → ${markdown}`);
    }
    const decoded = (m: string) => m.replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    for (const text of SHOWN) assert.equal(decoded(markdownText(text)), text);
  });

  it('markdownCode is one code span, in more backticks than the text holds in a row, that shows the text as it is', () => {
    for (const text of TEXTS) {
      const span = markdownCode(text);
      const fence = /^`+/.exec(span)?.[0] ?? '';
      assert.ok(span.startsWith(`${fence} `) && span.endsWith(` ${fence}`), span);
      const inner = span.slice(fence.length + 1, -fence.length - 1);
      assert.ok(!(inner.match(/`+/g) ?? []).some((run) => run.length === fence.length), span);
      assert.doesNotMatch(inner, HIDDEN);
      if (SHOWN.includes(text)) assert.equal(inner, text);
    }
  });

  it('markdownCodeBlock fences code that holds fences of its own', () => {
    const code = 'a = "```"\nb = "````"\n````';
    const block = markdownCodeBlock(code, 'python');
    const lines = block.split('\n');
    assert.deepEqual([lines[0], lines.at(-1)], ['`````python', '`````']);
    assert.deepEqual(lines.slice(1, -1), code.split('\n'));
    assert.equal(markdownCodeBlock('x\u202e', 'python').split('\n')[1], 'x\\u202e');
  });
});
