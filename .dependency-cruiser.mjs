// The parts of the code base and what each may import: the one table that `npm run lint` checks (through
// scripts/architecture.mjs) and that docs/architecture.md explains and draws.
//
// A part may import its own files, the parts it lists under `may` and, in turn, whatever those may import.
// `uses` lists what it may import from outside src/ and webview/: 'node' (any Node built-in) or 'node:NAME' (one),
// 'packages' (any npm package but vscode) or a package's name ('vscode' for the VS Code API).
// A part without 'vscode' may not reach it even through the parts it may import. `browser`: the part runs in a
// webview, so nothing it imports, even indirectly, may reach a Node built-in.
// Every file of src/ and webview/ belongs to exactly one part. Import circles between files are never allowed.
import { builtinModules } from 'node:module';

export const parts = {
  // The engine, bottom-up: pure TypeScript.
  'engine/base': { files: '^src/engine/base/', may: [] }, // errors, seeded random numbers, binary search
  'engine/data': { files: '^src/engine/data/', may: ['engine/base'] },
  'engine/params': { files: '^src/engine/params/', may: ['engine/base'] },
  'engine/model': { files: '^src/engine/model/', may: ['engine/data', 'engine/params'] },
  'engine/plan': { files: '^src/engine/plan/', may: ['engine/model'] },
  'engine/linear': { files: '^src/engine/linear/', may: ['engine/data'] },
  'engine/xplainable': { files: '^src/engine/xplainable/', may: ['engine/plan'] },
  'engine/boost': { files: '^src/engine/boost/', may: ['engine/plan', 'engine/linear'] },
  'engine/evaluate': { files: '^src/engine/evaluate/', may: ['engine/plan', 'engine/linear'] },
  'engine/fit': {
    files: '^src/engine/fit/',
    may: ['engine/xplainable', 'engine/boost', 'engine/evaluate'],
    uses: ['node:os', 'node:path', 'node:worker_threads'],
  },
  'engine/multiclass': { files: '^src/engine/multiclass/', may: ['engine/fit'] },
  engine: { files: '^src/engine/index\\.ts$', may: ['engine/multiclass'] },

  // Beside and above the engine; none of these knows VS Code.
  codeText: { files: '^src/codeText/', may: [] }, // names as literals and comment text of generated Python and SQL
  l10n: { files: '^src/l10n/', may: [] }, // vscode.l10n.t once the extension runs, English elsewhere
  contract: { files: '^src/contract/', may: ['engine/model', 'codeText'], uses: ['zod'] }, // the engine's parameter and model types only
  autotrain: { files: '^src/autotrain/', may: ['contract', 'engine'] },
  modelExport: { files: '^src/modelExport/', may: ['contract', 'engine'] },
  // What a panel or the model report shows, as pure functions of the wire types (no VS Code), and the panels' messages.
  views: { files: '^src/views/', may: ['contract', 'engine', 'l10n'], browser: true },
  report: { files: '^src/report/', may: ['modelExport', 'views'] }, // a version's report as HTML or Markdown
  client: { files: '^src/client/', may: ['contract', 'engine'], uses: ['node', 'packages'] },
  // The HTTP service, bottom-up: each part a folder of src/service/.
  'service/base': { files: '^src/service/base/', may: ['autotrain', 'report'], uses: ['node', 'packages'] }, // errors, logger, JSON and scratch files
  'service/store': { files: '^src/service/store/', may: ['service/base'], uses: ['node', 'packages'] },
  'service/sources': { files: '^src/service/sources/', may: ['service/store', 'service/textgen'], uses: ['node', 'packages'] },
  'service/textgen': { files: '^src/service/textgen/', may: ['service/base'], uses: ['node', 'packages'] },
  'service/datasetFiles': { files: '^src/service/datasetFiles/', may: ['service/store'], uses: ['node', 'packages'] },
  'service/training': { files: '^src/service/training/', may: ['service/datasetFiles'], uses: ['node', 'packages'] },
  'service/jobs': { files: '^src/service/jobs/', may: ['service/store'], uses: ['node', 'packages'] },
  'service/http': {
    files: '^src/service/http/',
    may: ['service/sources', 'service/textgen', 'service/training', 'service/jobs'],
    uses: ['node', 'packages'],
  },
  'service/datasets': { files: '^src/service/datasets/', may: ['service/http'], uses: ['node', 'packages'] },
  'service/pushdown': { files: '^src/service/pushdown/', may: ['service/datasets'], uses: ['node', 'packages'] },
  'service/models': { files: '^src/service/models/', may: ['service/pushdown'], uses: ['node', 'packages'] },
  'service/routes': { files: '^src/service/routes/', may: ['service/models'], uses: ['node', 'packages'] },
  service: { files: '^src/service/[^/]+$', may: ['service/routes'], uses: ['node', 'packages'] }, // server.ts
  cli: { files: '^src/cli\\.ts$', may: ['service', 'client'], uses: ['node'] },

  // The VS Code extension. It reaches the service only over HTTP, through client.
  prompts: { files: '^src/prompts/', may: ['engine'], uses: ['vscode'] },
  common: { files: '^src/common/', may: ['client', 'prompts', 'l10n'], uses: ['vscode', 'zod', 'hyparquet', 'hyparquet-compressors', 'hyparquet-writer'] },
  panels: { files: '^src/panels/', may: ['common', 'views'], uses: ['vscode', 'node'] },
  tree: { files: '^src/tree/', may: ['common', 'views'], uses: ['vscode'] },
  connection: { files: '^src/connection/', may: ['tree'], uses: ['vscode', 'node', 'zod'] },
  flows: { files: '^src/flows/', may: ['tree'], uses: ['node', 'zod'] }, // vscode-free: unit-tested in Node
  commands: { files: '^src/commands/', may: ['flows', 'connection', 'panels', 'report'], uses: ['vscode', 'node', 'zod'] },
  extension: { files: '^src/extension\\.ts$', may: ['commands'], uses: ['vscode', 'node'] },

  // Browser code of the panels.
  webview: {
    files: '^webview/',
    may: ['views'],
    uses: ['@vscode-elements/elements', 'chart.js', 'highlight.js'],
    browser: true,
  },
};

/** The parts `name` may import: itself, the ones it lists and, in turn, theirs. */
export function reach(name, seen = new Set()) {
  if (!parts[name]) throw new Error(`.dependency-cruiser.mjs: no part named ${name}`);
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const lower of parts[name].may) reach(lower, seen);
  return seen;
}
for (const [name, { may }] of Object.entries(parts)) {
  for (const lower of may) {
    if (reach(lower).has(name)) throw new Error(`.dependency-cruiser.mjs: ${name} and ${lower} may import each other`);
  }
}

const LOCAL = '^(src|webview)/';
const NODE = `^(node:.+|${builtinModules.join('|')})$`;
const PACKAGES = '^node_modules/';
const packagePath = (name) => `^node_modules/(@types/)?${name.replace(/[.]/g, '\\.')}/`;
const usePath = (use) => {
  if (use === 'node') return NODE;
  if (use.startsWith('node:')) return `^(node:)?${use.slice('node:'.length)}$`;
  if (use === 'packages') return PACKAGES;
  return packagePath(use);
};
const filesOf = (names) => names.map((n) => parts[n].files);

function rulesOf(name, { files, uses = [] }) {
  const may = Object.keys(parts).filter((n) => reach(name).has(n));
  return [
    {
      name: `${name} imports`,
      comment: `${name} may import only: ${may.join(', ')}.`,
      severity: 'error',
      from: { path: files },
      to: { path: LOCAL, pathNot: filesOf(may) },
    },
    {
      name: `${name} uses`,
      comment: `${name} may use from outside only: ${uses.join(', ') || 'nothing'}.`,
      severity: 'error',
      from: { path: files },
      to: { path: [NODE, PACKAGES], ...(uses.length > 0 && { pathNot: uses.map(usePath) }) },
    },
    // 'packages' matches vscode too: a part with it but without 'vscode' gets a rule of its own against vscode.
    ...(uses.includes('packages') && !uses.includes('vscode')
      ? [{ name: `${name} uses vscode`, comment: `${name} may not use vscode.`, severity: 'error', from: { path: files }, to: { path: packagePath('vscode') } }]
      : []),
  ];
}

const entries = Object.entries(parts);
const withVscode = entries.filter(([, p]) => p.uses?.includes('vscode')).map(([n]) => n);
const browser = entries.filter(([, p]) => p.browser).map(([n]) => n);
// Parts without vscode that may import parts with it: the only ones that could reach it without importing it.
const vscodeFree = entries
  .filter(([name, p]) => !p.uses?.includes('vscode') && withVscode.some((other) => reach(name).has(other)))
  .map(([n]) => n);

export default {
  forbidden: [
    ...entries.flatMap(([name, part]) => rulesOf(name, part)),
    {
      name: 'no circles',
      comment: 'Files may not import each other in a circle, directly or through others.',
      severity: 'error',
      from: { path: LOCAL },
      to: { circular: true },
    },
    {
      name: 'resolvable',
      comment: 'Every import must resolve to a file, a Node built-in or an installed package.',
      severity: 'error',
      from: { path: LOCAL },
      to: { couldNotResolve: true },
    },
    {
      name: 'vscode-free',
      comment: `${vscodeFree.join(', ')} may not reach the VS Code API, even indirectly.`,
      severity: 'error',
      from: { path: filesOf(vscodeFree) },
      to: { path: packagePath('vscode'), reachable: true },
    },
    {
      name: 'browser-safe',
      comment: `${browser.join(', ')} run in a webview: nothing they import, even indirectly, may reach Node built-ins.`,
      severity: 'error',
      from: { path: filesOf(browser) },
      to: { path: NODE, reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
