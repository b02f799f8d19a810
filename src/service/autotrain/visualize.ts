import type { DatasetSummary, GoalInput, VisualizationLibrary, VisualizationResponse } from '../../contract/autotrain';
import type { DataFrame } from '../../engine';
import { askModel, compactFields, UnusableAnswerError, withRulesFallback } from './llm-task';
import type { LlmEndpoint, TextGenContext } from './textgen';
import { chartSpec } from './viz-chart';
import { chartProgram, DEPENDENCIES, describePlan, FINAL_LINE, py } from './viz-code';
import { resolveGoal, type ResolvedGoal } from './viz-plan';

const FENCE_RE = /```([a-zA-Z0-9_-]*)[^\n]*\n([\s\S]*?)```/g;

/** LIDA's clean-up of a model's program: first fenced block, no prose before the imports, nothing after the final line. */
function cleanGeneratedCode(text: string): string {
  const blocks = [...text.matchAll(FENCE_RE)];
  const block = blocks.find((m) => m[1].toLowerCase().startsWith('py')) ?? blocks[0];
  let code = (block ? block[2] : text).replace(/\r\n/g, '\n');
  const firstImport = code.search(/^(import|from)\s/m);
  if (firstImport > 0) code = code.slice(firstImport);
  code = code
    .split('\n')
    .filter((line) => !/^\s*(plt|fig|chart)\.show\(\s*\)\s*$/.test(line))
    .join('\n');
  const finalAt = code.indexOf(FINAL_LINE);
  code = finalAt >= 0 ? code.slice(0, finalAt) : `${code.trimEnd()}\n\n`;
  return `${code.trimEnd()}\n${FINAL_LINE}\n`;
}

/** Subscripted names (`data["x"]`) must be dataset columns or columns the program assigns itself. */
function unknownColumns(code: string, columns: readonly string[]): string[] {
  const assigned = new Set([...code.matchAll(/\[\s*["']([^"'\n]+)["']\s*\]\s*=(?!=)/g)].map((m) => m[1]));
  const used = [
    ...[...code.matchAll(/\[\s*["']([^"'\n]+)["']\s*\]/g)].map((m) => m[1]),
    ...[...code.matchAll(/\[\[([^\]\n]+)\]\]/g)].flatMap((m) => [...m[1].matchAll(/["']([^"']+)["']/g)].map((q) => q[1])),
    ...[...code.matchAll(/\b(?:x|y|hue|facet_row|facet_col)\s*=\s*["']([^"'\n]+)["']/g)].map((m) => m[1]),
  ];
  return [...new Set(used.filter((name) => !columns.includes(name) && !assigned.has(name)))];
}

function ensureDataLoading(code: string, fileName: string): string {
  if (/pd\.read_csv\(\s*DATA_PATH\s*\)/.test(code) && /^DATA_PATH = /m.test(code)) return code;
  const withoutLoads = code.replace(/^data\s*=\s*pd\.read_csv\(.*\)\s*$/gm, '').replace(/^DATA_PATH = .*$/gm, '');
  const head = /^import pandas as pd$/m.test(withoutLoads) ? '' : 'import pandas as pd\n';
  const body = withoutLoads.slice(0, withoutLoads.lastIndexOf(FINAL_LINE)).trimEnd();
  return `${head}${body.replace(/^((?:(?:import|from) .*\n)+)/, `$1\nDATA_PATH = ${py(fileName)}\n`)}\n\n\ndata = pd.read_csv(DATA_PATH)\n${FINAL_LINE}\n`;
}

function validateProgram(summary: DatasetSummary): (text: string) => string {
  return (text) => {
    const code = ensureDataLoading(cleanGeneratedCode(text), summary.file_name);
    if (!/^def plot\(\s*data\b/m.test(code)) throw new UnusableAnswerError('the program does not define plot(data)');
    if (!/^\s+return\s+\S/m.test(code)) throw new UnusableAnswerError('plot(data) returns nothing');
    if (/\b(exec|eval|__import__|subprocess|os\.system)\b/.test(code)) throw new UnusableAnswerError('the program runs other code or commands');
    const unknown = unknownColumns(code, summary.field_names);
    if (unknown.length) throw new UnusableAnswerError(`the program uses column(s) ${unknown.map((c) => `'${c}'`).join(', ')} that the dataset does not have`);
    return code;
  };
}

function libraryInstruction(library: VisualizationLibrary): string {
  return library === 'plotly'
    ? 'Use plotly.express as px; plot(data) returns the figure; never call fig.show().'
    : `Use ${library === 'seaborn' ? 'seaborn as sns with matplotlib.pyplot as plt' : 'matplotlib.pyplot as plt'}; plot(data) returns plt; never call plt.show().`;
}

function codeFromModel(llm: LlmEndpoint, summary: DatasetSummary, resolved: ResolvedGoal, library: VisualizationLibrary, signal?: AbortSignal): Promise<string> {
  const template = chartProgram(library, resolved.plan, resolved.title, summary.file_name);
  const system = [
    'You are an expert data visualization engineer writing PERFECT Python code. Plan first, then write the program.',
    libraryInstruction(library),
    'Keep the structure of the template: imports, DATA_PATH, def plot(data) with the goal question as the title,',
    `data = pd.read_csv(DATA_PATH), and the last line exactly "${FINAL_LINE}". Import everything you use.`,
    'Use only columns from field_names or columns you derive in the program. Convert dates with errors="coerce" and drop NaT;',
    'rotate x-axis labels; keep at most 20 categories. Answer with the complete program in one fenced python block.',
  ].join(' ');
  const user = JSON.stringify({
    goal: { question: resolved.goal.question, visualization: resolved.goal.visualization, columns: resolved.goal.columns },
    library,
    field_names: summary.field_names,
    fields: compactFields(summary.fields, summary.missing_values),
    template,
  });
  return askModel(
    llm,
    [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    validateProgram(summary),
    { json: false, signal },
  );
}

/**
 * Python code that draws the goal's chart with the library (autotrain.md §7.5), plus a preview spec with values
 * computed from `frame` when given. The code is returned, never run. Throws AutotrainInputError when the goal
 * names no usable column.
 */
export async function visualizeData(
  summary: DatasetSummary,
  goal: GoalInput,
  library: VisualizationLibrary,
  ctx: TextGenContext,
  frame?: DataFrame,
): Promise<VisualizationResponse> {
  const resolved = resolveGoal(summary, goal);
  const result = await withRulesFallback(
    ctx,
    'visualize',
    (llm) => codeFromModel(llm, summary, resolved, library, ctx.signal),
    () => chartProgram(library, resolved.plan, resolved.title, summary.file_name),
  );
  return {
    code: result.value,
    language: 'python',
    library,
    description: describePlan(resolved.plan),
    dependencies: DEPENDENCIES[library],
    chart: chartSpec(resolved.plan, resolved.title, frame),
    source: result.source,
    warnings: result.warnings,
  };
}
