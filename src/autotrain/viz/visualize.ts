import type { ChartEdit, DatasetSummary, GoalInput, VisualizationLibrary, VisualizationResponse } from '../../contract/autotrain';
import { ruleEdit } from './chartEdit';
import type { DataFrame } from '../../engine';
import { askModel, compactFields, UnusableAnswerError, withRulesFallback } from '../llm/llmTask';
import { rowsOf, type Rows } from '../rows';
import type { LlmEndpoint, TextGenContext } from '../llm/textgen';
import { unsafeConstructs } from './codeSafety';
import { chartProgram, DEPENDENCIES, describePlan, frameProgram } from './code';
import { resolveGoal, type ResolvedGoal } from './plan';

const FENCE_RE = /```([a-zA-Z0-9_-]*)[^\n]*\n([\s\S]*?)```/g;

/**
 * LIDA's clean-up of a model's program: first fenced block, no prose before the imports, and only the imports and
 * definitions (the data loading, the final line and anything after it belong to the framing).
 */
function chartCode(text: string): string {
  const blocks = [...text.matchAll(FENCE_RE)];
  const block = blocks.find((m) => m[1].toLowerCase().startsWith('py')) ?? blocks[0];
  let code = (block ? block[2] : text).replace(/\r\n/g, '\n');
  const firstImport = code.search(/^(import|from)\s/m);
  if (firstImport > 0) code = code.slice(firstImport);
  const finalAt = code.search(/^chart\s*=\s*plot\(/m);
  if (finalAt >= 0) code = code.slice(0, finalAt);
  return code
    .split('\n')
    .filter((line) => !/^\s*(plt|fig|chart)\.show\(\s*\)\s*$/.test(line) && !/^(DATA_PATH\s*=|data\s*=\s*pd\.read_csv\()/.test(line))
    .join('\n')
    .trim();
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

function validateProgram(summary: DatasetSummary, library: VisualizationLibrary): (text: string) => string {
  return (text) => {
    const code = chartCode(text);
    if (!/^def plot\(\s*data\b/m.test(code)) throw new UnusableAnswerError('the program does not define plot(data)');
    if (!/^\s+return\s+\S/m.test(code)) throw new UnusableAnswerError('plot(data) returns nothing');
    const unsafe = unsafeConstructs(code);
    if (unsafe.length) throw new UnusableAnswerError(`the program is not limited to drawing a chart: ${unsafe.join('; ')}`);
    const unknown = unknownColumns(code, summary.field_names);
    if (unknown.length) throw new UnusableAnswerError(`the program uses column(s) ${unknown.map((c) => `'${c}'`).join(', ')} that the dataset does not have`);
    return frameProgram(library, code, summary.file_name);
  };
}

function libraryInstruction(library: VisualizationLibrary): string {
  return library === 'plotly'
    ? 'Use plotly.express as px; plot(data) returns the figure; never call fig.show().'
    : `Use ${library === 'seaborn' ? 'seaborn as sns with matplotlib.pyplot as plt' : 'matplotlib.pyplot as plt'}; plot(data) returns the figure; never call plt.show().`;
}

function codeFromModel(llm: LlmEndpoint, summary: DatasetSummary, resolved: ResolvedGoal, library: VisualizationLibrary, signal?: AbortSignal): Promise<string> {
  const template = chartProgram(library, resolved.plan, resolved.title, summary.file_name);
  const system = [
    'You are an expert data visualization engineer writing PERFECT Python code. Plan first, then write the program.',
    libraryInstruction(library),
    'Keep the structure of the template: imports, then def plot(data) with the goal question as the title; the template',
    'reads the data and shows the chart after plot(data), and that part is added for you. Import everything you use;',
    'only pandas, numpy, plotly, matplotlib and seaborn are available. Never read or write files.',
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
    validateProgram(summary, library),
    { json: false, signal },
  );
}

function editFromModel(llm: LlmEndpoint, summary: DatasetSummary, edit: ChartEdit, library: VisualizationLibrary, signal?: AbortSignal): Promise<string> {
  const system = [
    'You are an expert data visualization engineer. Change the given chart program as the instruction asks and change nothing else.',
    libraryInstruction(library),
    'Answer with the complete imports and def plot(data) in one fenced python block; the part that reads the data and shows the chart is added for you.',
    'Use only columns from field_names; only pandas, numpy, plotly, matplotlib and seaborn are available. Never read or write files.',
  ].join(' ');
  const user = JSON.stringify({ instruction: edit.instruction, library, field_names: summary.field_names, code: edit.code });
  return askModel(
    llm,
    [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    validateProgram(summary, library),
    { json: false, signal },
  );
}

/**
 * Python code that draws the goal's chart with the library (autotrain.md §7.5), plus a preview spec with values
 * computed from `frame` when given. With `edit`, the code is the edited program instead. The code is returned,
 * never run. Throws AutotrainInputError when the goal names no usable column or the rules cannot apply the edit.
 */
export async function visualizeData(
  summary: DatasetSummary,
  goal: GoalInput,
  library: VisualizationLibrary,
  ctx: TextGenContext,
  frame?: DataFrame | Rows,
  edit?: ChartEdit,
): Promise<VisualizationResponse> {
  const resolved = resolveGoal(summary, goal);
  const code = edit
    ? withRulesFallback(ctx, 'visualize', (llm) => editFromModel(llm, summary, edit, library, ctx.signal), () => ruleEdit(edit.code, edit.instruction, summary, library))
    : withRulesFallback(
      ctx,
      'visualize',
      (llm) => codeFromModel(llm, summary, resolved, library, ctx.signal),
      () => chartProgram(library, resolved.plan, resolved.title, summary.file_name),
    );
  // The preview's values are computed from the rows while the code is written.
  const [result, chart] = await Promise.all([code, rowsOf(frame).answer({ rule: 'chart', plan: resolved.plan, title: resolved.title })]);
  return {
    code: result.value,
    language: 'python',
    library,
    description: edit ? `${describePlan(resolved.plan)} Edited: ${edit.instruction}.` : describePlan(resolved.plan),
    dependencies: DEPENDENCIES[library],
    chart,
    source: result.source,
    warnings: result.warnings,
  };
}
