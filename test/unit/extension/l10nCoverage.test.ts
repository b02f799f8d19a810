import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

const root = join(__dirname, '../../..');
const EXTENSION_PARTS = ['commands', 'flows', 'panels', 'tree', 'connection', 'prompts', 'common'].map((part) => join(root, 'src', part) + sep);

/** The relative imports of a file (static and `import()`), resolved to .ts files. */
function importedFiles(file: string): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) specifiers.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => join(dirname(file), specifier.replace(/\.js$/, '')))
    .flatMap((base) => [`${base}.ts`, join(base, 'index.ts')].filter((candidate) => existsSync(candidate)).slice(0, 1));
}

/**
 * The extension host's modules of the UI parts: those src/extension.ts reaches. Modules only the webviews import
 * (the panels' browser-side shaping) show English, as the webviews do.
 */
function hostModules(): string[] {
  const entry = join(root, 'src', 'extension.ts');
  const reached = new Set([entry]);
  for (const file of reached) for (const imported of importedFiles(file)) reached.add(imported);
  return [...reached].filter((file) => file === entry || EXTENSION_PARTS.some((part) => file.startsWith(part)));
}
const extensionFiles = hostModules();

/** Calls whose every string argument is shown: toasts with their buttons, the status bar, a panel's tab title. */
const SHOWN_ARGUMENTS = new Map<string, (index: number) => boolean>(Object.entries({
  showInformationMessage: () => true,
  showWarningMessage: () => true,
  showErrorMessage: () => true,
  showQuickPick: (index: number) => index === 0,
  setStatusBarMessage: (index: number) => index === 0,
  createWebviewPanel: (index: number) => index === 1,
  pickCsvFile: (index: number) => index === 0,
}));
/** Properties of QuickPick items, input boxes, progress, tree items, the status bar, file dialogs, prompts and confirmations. */
const SHOWN_PROPERTIES = new Set(['label', 'description', 'detail', 'placeholder', 'placeHolder', 'title', 'prompt', 'tooltip', 'message', 'action', 'text', 'openLabel', 'saveLabel']);
/** Functions whose returned string is shown under an input box. */
const VALIDATORS = new Set(['validate', 'validateInput', 'check']);
/** Functions and constants named for the text they make (`missingText`, `describeStep`, `kindLabels`). */
const TEXT_NAME = /(?:Text|Texts|Label|Labels|Message|Title|Tooltip|Description)$|^describe[A-Z]?/;

/**
 * Text a user reads: a word of two or more letters that is either capitalised or beside another word. Codicons
 * (`$(add)`), ids and command names (`xmodels.train`), file globs, CSS and lone lower-case tokens are not.
 */
function isProse(text: string): boolean {
  const spaced = text.replace(/\$\([\w~-]+\)/g, ' ').replace(/\{\}/g, ' ');
  const words = spaced.trim();
  if (!/[A-Za-z]{2}/.test(words) || /^(?:[a-z-]+\s*:\s*[^;:]+;?\s*)+$/.test(words)) return false;
  if (/^[\w.:/*?{}[\]!-]+$/.test(spaced) && !/^[A-Z][a-z]/.test(words)) return false;
  return /\s/.test(spaced) || /^[A-Z][a-z]/.test(words) || /[^\w.:/*?{}[\]!-]/.test(words);
}

function isL10nCall(node: ts.CallExpression): boolean {
  if (!ts.isPropertyAccessExpression(node.expression) || node.expression.name.text !== 't') return false;
  const owner = node.expression.expression;
  return (ts.isIdentifier(owner) && owner.text === 'l10n') || (ts.isPropertyAccessExpression(owner) && owner.name.text === 'l10n');
}

/** The raw literals of an expression that reach the user without l10n: through `+`, `?:`, `??`, `||`, templates and arrays. */
function rawLiterals(node: ts.Expression): ts.Node[] {
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node)) return rawLiterals(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return isProse(node.text) ? [node] : [];
  if (ts.isTemplateExpression(node)) return isProse([node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('{}')) ? [node] : [];
  if (ts.isBinaryExpression(node)) {
    const operator = node.operatorToken.kind;
    if (operator === ts.SyntaxKind.PlusToken) return [...rawLiterals(node.left), ...rawLiterals(node.right)];
    if (operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.BarBarToken) return rawLiterals(node.right);
    return [];
  }
  if (ts.isConditionalExpression(node)) return [...rawLiterals(node.whenTrue), ...rawLiterals(node.whenFalse)];
  if (ts.isArrayLiteralExpression(node)) return node.elements.flatMap((element) => (ts.isExpression(element) ? rawLiterals(element) : []));
  return [];
}

function calleeName(node: ts.CallExpression | ts.NewExpression): string | undefined {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function propertyName(name: ts.PropertyName | ts.MemberName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name) ? name.text : undefined;
}

function returnedExpressions(fn: ts.Node): ts.Expression[] {
  if ((ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn) || ts.isFunctionDeclaration(fn)) && fn.body) {
    if (!ts.isBlock(fn.body)) return [fn.body];
    const found: ts.Expression[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isReturnStatement(node) && node.expression) found.push(node.expression);
      if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
    };
    ts.forEachChild(fn.body, visit);
    return found;
  }
  return [];
}

/** Every user-facing expression of a file: what the UI shows, errors it throws, validation messages. */
function shownExpressions(node: ts.Node, found: ts.Expression[] = []): ts.Expression[] {
  if (ts.isCallExpression(node) && !isL10nCall(node)) {
    const shown = SHOWN_ARGUMENTS.get(calleeName(node) ?? '');
    if (shown) node.arguments.forEach((argument, index) => shown(index) && found.push(argument));
  }
  if (ts.isNewExpression(node)) {
    const name = calleeName(node) ?? '';
    if (/^(?:\w*Error|\w*TreeItem|MarkdownString)$/.test(name) && node.arguments?.[0]) found.push(node.arguments[0]);
  }
  if (ts.isPropertyAssignment(node)) {
    const name = propertyName(node.name) ?? '';
    if (SHOWN_PROPERTIES.has(name)) found.push(node.initializer);
    if (VALIDATORS.has(name)) found.push(...returnedExpressions(node.initializer));
    if (name === 'filters' && ts.isObjectLiteralExpression(node.initializer)) {
      found.push(...node.initializer.properties.flatMap((filter) => (filter.name && ts.isStringLiteral(filter.name) ? [filter.name] : [])));
    }
  }
  if (ts.isMethodDeclaration(node) && VALIDATORS.has(propertyName(node.name) ?? '')) found.push(...returnedExpressions(node));
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name && TEXT_NAME.test(propertyName(node.name) ?? '')) found.push(...returnedExpressions(node));
  if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && TEXT_NAME.test(node.name.text) && node.initializer) {
    const value = node.initializer;
    if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) found.push(...returnedExpressions(value));
    else if (ts.isObjectLiteralExpression(value)) found.push(...value.properties.flatMap((property) => (ts.isPropertyAssignment(property) ? [property.initializer] : [])));
    else found.push(value);
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left)) {
    if (SHOWN_PROPERTIES.has(node.left.name.text)) found.push(node.right);
  }
  ts.forEachChild(node, (child) => void shownExpressions(child, found));
  return found;
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function where(source: ts.SourceFile, node: ts.Node): string {
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return `${relative(root, source.fileName)}:${line + 1}: ${node.getText(source).slice(0, 100)}`;
}

function unlocalised(file: string): string[] {
  const source = parse(file);
  return shownExpressions(source).flatMap((expression) => rawLiterals(expression).map((literal) => where(source, literal)));
}

/** `(message, ...args) => vscode.l10n.t(message, ...args)`: the one place that hands messages on to VS Code. */
function forwardsParameter(call: ts.CallExpression): boolean {
  const [message] = call.arguments;
  const scope = ts.findAncestor(call.parent, ts.isFunctionLike);
  return !!message && ts.isIdentifier(message) && !!scope && scope.parameters.some((parameter) => parameter.name.getText() === message.text);
}

function l10nCalls(): [ts.SourceFile, ts.CallExpression][] {
  return extensionFiles.flatMap((file) => {
    const source = parse(file);
    const calls: [ts.SourceFile, ts.CallExpression][] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isL10nCall(node)) calls.push([source, node]);
      ts.forEachChild(node, visit);
    };
    visit(source);
    return calls;
  });
}

describe('localisation coverage of the extension', () => {
  it('tells prose from ids, command names, codicons, globs and CSS', () => {
    for (const prose of ['Retry', 'Train a model', '$(add) New model', '{} rows', 'Cancelled.', 'v{} of {}']) assert.ok(isProse(prose), prose);
    for (const code of ['xmodels.train', '$(add)', '**/*.csv', 'color: var(--x); width: 2px', '{} · {}', 'csv', 'v{}', '', 'XModels.train']) {
      assert.ok(!isProse(code), code);
    }
  });

  it('finds a raw toast, pick label, thrown error, validation message and text helper, and accepts their l10n forms', () => {
    const code = [
      "vscode.window.showWarningMessage('The model is gone.', 'Retry');",
      "const item = { label: `${name} (${rows} rows)`, description: l10n.t('{0} rows', rows), id: 'xmodels.model' };",
      "throw new UserFacingError(cond ? 'Choose a CSV file.' : vscode.l10n.t('Choose a folder.'));",
      "prompter.input({ validate: (value) => (value ? undefined : 'Enter a name.') });",
      "item.tooltip = '$(warning)';",
      "function missingText(n: number) { return n ? `${n} missing` : l10n.t('none'); }",
    ].join('\n');
    const source = ts.createSourceFile('unlocalised.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const lines = shownExpressions(source).flatMap(rawLiterals).map((literal) => source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1);
    assert.deepEqual(lines, [1, 1, 2, 3, 4, 6]);
  });

  it('routes every message, pick, prompt, progress, tree text, panel title and thrown error of the extension through l10n', () => {
    assert.ok(extensionFiles.length > 60);
    assert.deepEqual(extensionFiles.flatMap(unlocalised), []);
  });

  it('gives l10n.t a string literal, so npm run l10n can put the message in the bundle', () => {
    const offending = l10nCalls().filter(([, call]) => !ts.isStringLiteral(call.arguments[0]) && !forwardsParameter(call));
    assert.deepEqual(offending.map(([source, call]) => where(source, call)), []);
  });

  it('calls l10n.t when the text is shown, not when its module loads (before the translation is set)', () => {
    const atLoad = l10nCalls().filter(([, call]) => !ts.findAncestor(call, ts.isFunctionLike));
    assert.deepEqual(atLoad.map(([source, call]) => where(source, call)), []);
  });
});

describe('localisation of package.json contributions', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: unknown; displayName: string };
  const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const TEXT_FIELDS = new Set(['title', 'shortTitle', 'description', 'markdownDescription', 'enumDescriptions', 'markdownEnumDescriptions', 'deprecationMessage', 'markdownDeprecationMessage', 'label', 'name', 'contextualTitle', 'altText', 'contents']);

  function texts(value: unknown, path: string, field: string | undefined, found: [string, string][]): [string, string][] {
    if (typeof value === 'string' && field && TEXT_FIELDS.has(field)) found.push([path, value]);
    else if (Array.isArray(value)) value.forEach((item, index) => texts(item, `${path}[${index}]`, field, found));
    else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) texts(item, `${path}.${key}`, key, found);
    return found;
  }

  it('gives every contributed title, description and label as a %key% of package.nls.json (the product name aside)', () => {
    const shown = texts(manifest.contributes, 'contributes', undefined, []).filter(([, text]) => text !== manifest.displayName);
    assert.ok(shown.length > 50);
    const offending = shown.filter(([, text]) => !/^%[^%]+%$/.test(text) || !(text.slice(1, -1) in nls)).map(([path, text]) => `${path}: ${text}`);
    assert.deepEqual(offending, []);
  });
});
