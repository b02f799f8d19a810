import { pyString, PY_STRING_PATTERN } from '../../codeText/python';
import type { DatasetSummary, VisualizationLibrary } from '../../contract/autotrain';
import { mentionedColumns } from '../columns/fieldRoles';
import { AutotrainInputError } from './plan';

const LOG_RE = /\blog(?:arithmic)?\b/i;
const YEAR_RE = /\bonly\s+(?:in\s+|for\s+)?(\d{4})\b/i;
const COLOUR_RE = /\b(?:colou?r(?:ed)?|hue)\s+(?:by|on|per)\s+(.+)$/i;
const PLOT_DEF = /^def plot\(data[^\n]*\):\n/m;
const RETURN_FIG = /^ {4}return fig$/m;

/** The edits the rules know, named in the 422 when an instruction asks for something else. */
export const RULE_EDITS = '"log scale" (or "log x"), "only 2020" (rows of one year of a date column), "colour by <column>" (plotly and seaborn)';

function logScale(code: string, instruction: string, library: VisualizationLibrary): string {
  const axis = /\bx\b|x[- ]?axis|horizontal/i.test(instruction) ? 'x' : 'y';
  const line = library === 'plotly' ? `    fig.update_${axis}axes(type="log")` : `    ax.set_${axis}scale("log")`;
  if (!RETURN_FIG.test(code)) throw new AutotrainInputError('the chart code has no "return fig" line in plot(data) to add the log scale before', 'edit.code');
  return code.replace(RETURN_FIG, `${line}\n    return fig`);
}

function onlyYear(code: string, instruction: string, year: string, summary: DatasetSummary): string {
  const dates = summary.fields.filter((f) => f.properties.dtype === 'date').map((f) => f.column);
  const column = mentionedColumns(instruction, dates)[0] ?? dates[0];
  if (!column) throw new AutotrainInputError(`"${instruction}" needs a date column, and the dataset has none`, 'edit.instruction');
  if (!PLOT_DEF.test(code)) throw new AutotrainInputError('the chart code does not define plot(data)', 'edit.code');
  const filter = `    data = data[pd.to_datetime(data[${pyString(column)}], errors="coerce").dt.year == ${year}]\n`;
  return code.replace(PLOT_DEF, (def) => def + filter);
}

function colourBy(code: string, rest: string, summary: DatasetSummary, library: VisualizationLibrary): string {
  const column = mentionedColumns(rest, summary.field_names)[0];
  if (!column) throw new AutotrainInputError(`"${rest.trim()}" names no column of the dataset; name one of: ${summary.field_names.join(', ')}`, 'edit.instruction');
  if (library === 'matplotlib') throw new AutotrainInputError('colouring by a column is an edit for plotly or seaborn code; switch the library, then ask again', 'edit.instruction');
  const subset = new RegExp(String.raw`^( {4}subset = data\[\[)((?:${PY_STRING_PATTERN})(?:, (?:${PY_STRING_PATTERN}))*)(\]\])`, 'm');
  const call = library === 'plotly' ? /\bpx\.(scatter|line|box)\(subset, / : /\bsns\.(scatterplot|lineplot|boxplot)\(data=subset, /;
  if (!subset.test(code) || !call.test(code)) {
    throw new AutotrainInputError('only scatter, line and grouped box charts drawn from `subset` can be coloured by a column', 'edit.instruction');
  }
  const keyword = library === 'plotly' ? 'color' : 'hue';
  const literal = pyString(column);
  const listed = (cols: string) => Array.from(cols.matchAll(new RegExp(PY_STRING_PATTERN, 'g')), (m) => m[0]);
  return code
    .replace(subset, (_m, head: string, cols: string, tail: string) => (listed(cols).includes(literal) ? `${head}${cols}${tail}` : `${head}${cols}, ${literal}${tail}`))
    .replace(call, (m) => `${m}${keyword}=${literal}, `);
}

/** Applies a common edit to chart code by rules; throws AutotrainInputError (422) for an instruction they do not know. */
export function ruleEdit(code: string, instruction: string, summary: DatasetSummary, library: VisualizationLibrary): string {
  const year = YEAR_RE.exec(instruction);
  const colour = COLOUR_RE.exec(instruction);
  let edited = code;
  if (year) edited = onlyYear(edited, instruction, year[1], summary);
  if (colour) edited = colourBy(edited, colour[1], summary, library);
  if (LOG_RE.test(instruction)) edited = logScale(edited, instruction, library);
  if (edited === code) throw new AutotrainInputError(`"${instruction}" is not an edit the built-in rules know; they know ${RULE_EDITS}`, 'edit.instruction');
  return edited;
}
