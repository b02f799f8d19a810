import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Database } from 'node-sqlite3-wasm';
import { commentText } from '../../../src/codeText/comment';
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
