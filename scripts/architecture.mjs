// `npm run architecture`: checks every import in src/ and webview/ against the parts table in .dependency-cruiser.mjs
// and writes the part-level dependency graph into docs/architecture.md. With --check (as `npm run lint` runs it) it
// writes nothing and also fails when the graph in docs/architecture.md is not the one the code gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { parts } from '../.dependency-cruiser.mjs';

const DOC = 'docs/architecture.md';
const BEGIN = '<!-- part graph: written by `npm run architecture` -->';
const END = '<!-- end of part graph -->';
const LOCAL = /^(src|webview)\//;

const options = await extractDepcruiseOptions('./.dependency-cruiser.mjs');
const { output: result } = await cruise(['src', 'webview'], options, {}, {
  tsConfig: extractTSConfig(options.tsConfig.fileName),
});

const problems = new Set();

// One line per violation: the rule, the importing file and the path to what it may not reach; then why.
const comments = new Map(options.ruleSet.forbidden.map((rule) => [rule.name, rule.comment]));
const circles = new Set();
for (const violation of result.summary.violations) {
  const steps = (violation.cycle ?? violation.via ?? [{ name: violation.to }]).map((step) => step.name);
  if (violation.cycle) {
    const circle = [...steps].sort().join();
    if (circles.has(circle)) continue;
    circles.add(circle);
  }
  problems.add(`${violation.rule.name}: ${[violation.from, ...steps].join(' → ')}\n  ${comments.get(violation.rule.name)}`);
}

const partNames = Object.keys(parts);
const partOf = (file) => {
  const names = partNames.filter((name) => new RegExp(parts[name].files).test(file));
  if (names.length !== 1) problems.add(`${file} is in ${names.length} parts (${names.join(', ')}) of .dependency-cruiser.mjs, not one.`);
  return names[0];
};

const edges = new Set();
const present = new Set();
for (const module of result.modules.filter((m) => LOCAL.test(m.source))) {
  const from = partOf(module.source);
  present.add(from);
  for (const { resolved } of module.dependencies.filter((d) => LOCAL.test(d.resolved))) {
    const to = partOf(resolved);
    if (from && to && from !== to) edges.add(`${from} --> ${to}`);
  }
}

// Arrow A --> B: a file of A imports one of B. An arrow that a longer path already implies is left out, so the
// picture stays readable; parts named X/Y are drawn in a box X.
const implied = (from, to) => {
  const seen = new Set();
  const walk = (part) =>
    [...edges].some((edge) => {
      const [a, b] = edge.split(' --> ');
      if (a !== part || edge === `${from} --> ${to}` || seen.has(b)) return false;
      seen.add(b);
      return b === to || walk(b);
    });
  return walk(from);
};
const arrows = [...edges].filter((edge) => !implied(...edge.split(' --> '))).sort();
const id = (name) => name.replace('/', '_');
const box = (name) => name.split('/')[0];
const drawn = partNames.filter((name) => present.has(name));
const graph = [
  '```mermaid',
  'flowchart TD',
  ...[...new Set(drawn.map(box))].flatMap((b) => {
    const members = drawn.filter((name) => box(name) === b).map((name) => `${id(name)}[${name}]`);
    return members.length === 1 ? [`  ${members[0]}`] : [`  subgraph ${b}_box [${b}]`, ...members.map((m) => `    ${m}`), '  end'];
  }),
  ...arrows.map((edge) => `  ${edge.split(' --> ').map(id).join(' --> ')}`),
  '```',
].join('\n');

const doc = readFileSync(DOC, 'utf8');
const [head, rest] = doc.split(BEGIN);
if (rest === undefined || !rest.includes(END)) {
  problems.add(`${DOC} has no place for the graph: a line ${BEGIN} and, after it, a line ${END}.`);
} else {
  const updated = `${head}${BEGIN}\n${graph}\n${rest.slice(rest.indexOf(END))}`;
  if (!process.argv.includes('--check')) writeFileSync(DOC, updated);
  else if (updated !== doc) problems.add(`The graph in ${DOC} is not the one the code gives: run npm run architecture.`);
}

if (problems.size > 0) {
  console.error([...problems].join('\n'));
  console.error(`architecture: ${problems.size} problems (the parts table is in .dependency-cruiser.mjs)`);
  process.exit(1);
}
console.log(`architecture: ${result.summary.totalCruised} modules, ${edges.size} dependencies between parts, all allowed`);
