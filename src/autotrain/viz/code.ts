import { pyString as py } from '../../codeText/python';
import type { VisualizationLibrary } from '../../contract/autotrain';
import type { ChartPlan } from './plan';

/** Bars, boxes and heatmap axes keep this many most frequent levels. */
export const TOP_LEVELS = 20;
export const HISTOGRAM_BINS = 20;

export const FINAL_LINE = 'chart = plot(data)';

export const DEPENDENCIES: Record<VisualizationLibrary, string[]> = {
  plotly: ['pandas', 'plotly'],
  matplotlib: ['pandas', 'matplotlib'],
  seaborn: ['pandas', 'matplotlib', 'seaborn'],
};

/** Imports of the program; plotly heatmaps use graph_objects, which works across plotly and numpy versions. */
function imports(library: VisualizationLibrary, plan: ChartPlan): string[] {
  if (library === 'plotly') return [plan.kind === 'heatmap' ? 'import plotly.graph_objects as go' : 'import plotly.express as px'];
  return library === 'seaborn' ? ['import seaborn as sns'] : [];
}

/** A matplotlib text literal: `$` is escaped so that a column name such as `Cost $` is not read as math text. */
function mplText(text: string): string {
  return py(text.replace(/\$/g, '\\$'));
}

function periodKey(column: string, plan: Extract<ChartPlan, { kind: 'line' }>, frame: string): string {
  const col = `${frame}[${py(column)}]`;
  if (plan.period === 'day') return `${col}.dt.floor("D")`;
  if (plan.period === 'month') return `${col}.dt.to_period("M").dt.to_timestamp()`;
  return col;
}

/** pandas lines that shape `data` for the chart; every library draws from the same variables. */
function prepare(plan: ChartPlan): string[] {
  switch (plan.kind) {
    case 'histogram':
      return [`values = data[${py(plan.x)}].dropna()`];
    case 'bar':
      if (plan.share) return [`bars = (data[${py(plan.x)}].dropna().astype(str).value_counts(normalize=True) * 100).head(${TOP_LEVELS})`];
      return plan.y === null
        ? [`bars = data[${py(plan.x)}].dropna().astype(str).value_counts().head(${TOP_LEVELS})`]
        : [
          `subset = data[[${py(plan.x)}, ${py(plan.y)}]].dropna()`,
          `bars = subset.groupby(subset[${py(plan.x)}].astype(str))[${py(plan.y)}].mean().sort_values(ascending=False).head(${TOP_LEVELS})`,
        ];
    case 'scatter':
      return [`subset = data[[${py(plan.x)}, ${py(plan.y)}]].dropna()`];
    case 'line': {
      const parse = (frame: string): string => `pd.to_datetime(${frame}[${py(plan.x)}], errors="coerce"${plan.dayFirst ? ', dayfirst=True' : ''})`;
      return plan.y === null
        ? [
          `dates = ${parse('data')}.dropna().to_frame()`,
          `series = dates.groupby(${periodKey(plan.x, plan, 'dates')}).size().reset_index(name="count")`,
        ]
        : [
          `subset = data[[${py(plan.x)}, ${py(plan.y)}]].copy()`,
          `subset[${py(plan.x)}] = ${parse('subset')}`,
          'subset = subset.dropna()',
          `series = subset.groupby(${periodKey(plan.x, plan, 'subset')})[${py(plan.y)}].mean().reset_index()`,
        ];
    }
    case 'box':
      return plan.x === null
        ? [`values = data[${py(plan.y)}].dropna()`]
        : [
          `subset = data[[${py(plan.x)}, ${py(plan.y)}]].dropna().copy()`,
          `subset[${py(plan.x)}] = subset[${py(plan.x)}].astype(str)`,
          `order = subset[${py(plan.x)}].value_counts().head(${TOP_LEVELS}).index.tolist()`,
          `subset = subset[subset[${py(plan.x)}].isin(order)]`,
        ];
    case 'heatmap':
      return plan.value === 'correlation'
        ? [`matrix = data[[${plan.columns.map(py).join(', ')}]].corr()`]
        : [
          `subset = data[[${py(plan.y)}, ${py(plan.x)}]].dropna().astype(str)`,
          `rows = subset[${py(plan.y)}].value_counts().head(${TOP_LEVELS}).index`,
          `cols = subset[${py(plan.x)}].value_counts().head(${TOP_LEVELS}).index`,
          `subset = subset[subset[${py(plan.y)}].isin(rows) & subset[${py(plan.x)}].isin(cols)]`,
          `matrix = pd.crosstab(subset[${py(plan.y)}], subset[${py(plan.x)}]).reindex(index=rows, columns=cols, fill_value=0)`,
        ];
  }
}

function axisLabels(plan: ChartPlan): { x: string; y: string } {
  switch (plan.kind) {
    case 'histogram':
      return { x: plan.x, y: 'count' };
    case 'bar':
      return { x: plan.x, y: plan.share ? '% of rows' : plan.y === null ? 'count' : `mean ${plan.y}` };
    case 'line':
      return { x: plan.x, y: plan.y ?? 'count' };
    case 'box':
      return { x: plan.x ?? '', y: plan.y };
    case 'scatter':
      return { x: plan.x, y: plan.y };
    case 'heatmap':
      return plan.value === 'correlation' ? { x: '', y: '' } : { x: plan.x, y: plan.y };
  }
}

function lineY(plan: Extract<ChartPlan, { kind: 'line' }>): string {
  return py(plan.y ?? 'count');
}

function plotlyDraw(plan: ChartPlan, title: string): string[] {
  const t = py(title);
  const labels = axisLabels(plan);
  switch (plan.kind) {
    case 'histogram':
      return [`fig = px.histogram(x=values, nbins=${HISTOGRAM_BINS}, labels={"x": ${py(labels.x)}}, title=${t})`];
    case 'bar':
      return [`fig = px.bar(x=bars.index, y=bars.values, labels={"x": ${py(labels.x)}, "y": ${py(labels.y)}}, title=${t})`];
    case 'scatter':
      return [`fig = px.scatter(subset, x=${py(plan.x)}, y=${py(plan.y)}, opacity=0.6, title=${t})`];
    case 'line':
      return [`fig = px.line(series, x=${py(plan.x)}, y=${lineY(plan)}, title=${t})`];
    case 'box':
      return plan.x === null
        ? [`fig = px.box(y=values, labels={"y": ${py(plan.y)}}, title=${t})`]
        : [`fig = px.box(subset, x=${py(plan.x)}, y=${py(plan.y)}, category_orders={${py(plan.x)}: order}, title=${t})`];
    case 'heatmap': {
      const scale = plan.value === 'correlation' ? 'zmin=-1, zmax=1, colorscale="RdBu_r"' : 'colorscale="Blues"';
      return [
        `fig = go.Figure(go.Heatmap(z=matrix.values, x=matrix.columns.astype(str), y=matrix.index.astype(str), ${scale}))`,
        `fig.update_layout(title=${t}, xaxis_title=${py(labels.x)}, yaxis_title=${py(labels.y)})`,
      ];
    }
  }
}

/** Drawing lines for matplotlib (`sns` false) or seaborn on `fig, ax`. */
function axesDraw(plan: ChartPlan, sns: boolean): string[] {
  switch (plan.kind) {
    case 'histogram':
      return [sns ? `sns.histplot(x=values, bins=${HISTOGRAM_BINS}, ax=ax)` : `ax.hist(values, bins=${HISTOGRAM_BINS}, color="steelblue", edgecolor="white")`];
    case 'bar':
      return [sns ? 'sns.barplot(x=bars.index, y=bars.values, color="steelblue", ax=ax)' : 'ax.bar(bars.index, bars.values, color="steelblue")'];
    case 'scatter':
      return [sns ? `sns.scatterplot(data=subset, x=${py(plan.x)}, y=${py(plan.y)}, alpha=0.6, ax=ax)` : `ax.scatter(subset[${py(plan.x)}], subset[${py(plan.y)}], alpha=0.6)`];
    case 'line':
      return [sns ? `sns.lineplot(data=series, x=${py(plan.x)}, y=${lineY(plan)}, ax=ax)` : `ax.plot(series[${py(plan.x)}], series[${lineY(plan)}])`];
    case 'box':
      if (plan.x === null) return [sns ? 'sns.boxplot(y=values, ax=ax)' : 'ax.boxplot(values)'];
      return sns
        ? [`sns.boxplot(data=subset, x=${py(plan.x)}, y=${py(plan.y)}, order=order, ax=ax)`]
        : [
          `ax.boxplot([subset.loc[subset[${py(plan.x)}] == level, ${py(plan.y)}] for level in order])`,
          'ax.set_xticks(range(1, len(order) + 1), order)',
        ];
    case 'heatmap': {
      const corr = plan.value === 'correlation';
      if (sns) {
        return [corr
          ? 'sns.heatmap(matrix, annot=True, fmt=".2f", vmin=-1, vmax=1, center=0, cmap="coolwarm", ax=ax)'
          : 'sns.heatmap(matrix, annot=True, fmt="d", cmap="Blues", ax=ax)'];
      }
      return [
        corr ? 'image = ax.imshow(matrix.values, vmin=-1, vmax=1, cmap="coolwarm", aspect="auto")' : 'image = ax.imshow(matrix.values, cmap="Blues", aspect="auto")',
        'fig.colorbar(image, ax=ax)',
        'ax.set_xticks(range(len(matrix.columns)), matrix.columns)',
        'ax.set_yticks(range(len(matrix.index)), matrix.index)',
      ];
    }
  }
}

function drawLines(library: VisualizationLibrary, plan: ChartPlan, title: string): string[] {
  if (library === 'plotly') {
    return [...plotlyDraw(plan, title), 'fig.update_layout(xaxis_tickangle=-45)', 'return fig'];
  }
  const labels = axisLabels(plan);
  return [
    'fig, ax = plt.subplots(figsize=(10, 6))',
    ...axesDraw(plan, library === 'seaborn'),
    ...(labels.x ? [`ax.set_xlabel(${mplText(labels.x)})`] : []),
    ...(labels.y ? [`ax.set_ylabel(${mplText(labels.y)})`] : []),
    `ax.set_title(${mplText(title)})`,
    'plt.setp(ax.get_xticklabels(), rotation=45, ha="right")',
    'fig.tight_layout()',
    'return fig',
  ];
}

/** The service's CSV rule: comma-separated UTF-8 (a BOM allowed), and only an empty field is missing. */
const READ_CSV_OPTIONS = 'sep=",", encoding="utf-8-sig", keep_default_na=False, na_values=[""]';

/** Imports the framing itself uses, per library. */
const FRAME_IMPORTS: Record<VisualizationLibrary, string[]> = {
  plotly: ['import webbrowser', 'from pathlib import Path', '', 'import pandas as pd'],
  matplotlib: ['from pathlib import Path', '', 'import matplotlib', 'import matplotlib.pyplot as plt', 'import pandas as pd'],
  seaborn: ['from pathlib import Path', '', 'import matplotlib', 'import matplotlib.pyplot as plt', 'import pandas as pd'],
};

/**
 * `read_data(path)`: the file of that name beside the script first (so a script saved with its data, or the data
 * copied beside it, reads that), else `path` as written, an absolute path when the extension knows where the file is.
 */
const READ_DATA = [
  'def read_data(path: str) -> pd.DataFrame:',
  '    """Reads the data as the XModels service does (a Parquet file by its first bytes, else a CSV): the file of that',
  '    name beside this script first (in a notebook, in the working folder), else the path as written."""',
  '    given = Path(path)',
  '    here = Path(__file__).resolve().parent if "__file__" in globals() else Path.cwd()',
  '    tried = list(dict.fromkeys([here / (given.name if given.is_absolute() else given), given.resolve()]))',
  '    file = next((candidate for candidate in tried if candidate.is_file()), None)',
  '    if file is None:',
  '        looked = " and ".join(str(candidate) for candidate in tried)',
  '        raise FileNotFoundError(',
  '            f"The data file {given.name} was not found: looked for {looked}. Save this script beside {given.name}, "',
  '            "or set DATA_PATH to the full path of the file."',
  '        )',
  '    with open(file, "rb") as head:',
  '        if head.read(4) == b"PAR1":',
  '            return pd.read_parquet(file)  # with pyarrow or fastparquet installed',
  `    return pd.read_csv(file, ${READ_CSV_OPTIONS})`,
];

const SHOW: Record<'plotly' | 'axes', string[]> = {
  plotly: [
    'def show(figure) -> None:',
    '    """Writes the chart next to this script and opens it in the browser when there is one."""',
    '    out = Path(__file__).resolve().with_suffix(".html")',
    '    figure.write_html(out)',
    '    print(f"Chart written to {out}")',
    '    webbrowser.open(out.as_uri())',
  ],
  axes: [
    'def show(figure) -> None:',
    '    """Shows the chart in a window, or writes it next to this script when there is no display."""',
    '    if matplotlib.get_backend().lower() in ("agg", "pdf", "ps", "svg", "cairo", "template"):',
    '        out = Path(__file__).resolve().with_suffix(".png")',
    '        figure.savefig(out)',
    '        print(f"Chart written to {out}")',
    '    else:',
    '        plt.show()',
  ],
};

/** As a script the chart is shown (or written to a file); in a notebook cell the last expression displays it. */
function footer(library: VisualizationLibrary): string[] {
  const axes = library !== 'plotly';
  return [
    'data = read_data(DATA_PATH)',
    FINAL_LINE,
    ...(axes ? ['chart = chart if isinstance(chart, matplotlib.figure.Figure) else plt.gcf()'] : []),
    'if "__file__" in globals():',
    '    show(chart)',
    ...(axes ? ['else:', '    plt.close(chart)'] : []),
    'chart',
  ];
}

const IMPORT_LINE = /^(?:import|from)\s/;

/**
 * Frames chart code (imports and `def plot(data)`, with no data loading of its own) as a complete program: the
 * framing's imports, `DATA_PATH`, the code, `read_data` and `show`, then `chart = plot(data)` and the display lines.
 */
export function frameProgram(library: VisualizationLibrary, code: string, fileName: string): string {
  const lines = code.replace(/\r\n/g, '\n').trim().split('\n');
  const firstBody = lines.findIndex((l) => l.trim() !== '' && !IMPORT_LINE.test(l));
  const ownImports = (firstBody < 0 ? lines : lines.slice(0, firstBody)).filter((l) => l.trim() !== '');
  const body = firstBody < 0 ? [] : lines.slice(firstBody);
  const frameImports = FRAME_IMPORTS[library];
  const extra = ownImports.filter((l) => !frameImports.includes(l));
  return [
    ...frameImports,
    ...extra,
    '',
    `DATA_PATH = ${py(fileName)}`,
    '',
    '',
    ...body,
    '',
    '',
    ...READ_DATA,
    '',
    '',
    ...SHOW[library === 'plotly' ? 'plotly' : 'axes'],
    '',
    '',
    ...footer(library),
    '',
  ].join('\n');
}

/** The program of a plan: `plot(data)` shapes the data and draws the chart, returning the figure. */
export function chartProgram(library: VisualizationLibrary, plan: ChartPlan, title: string, fileName: string): string {
  const body = [...prepare(plan), ...drawLines(library, plan, title)].map((l) => `    ${l}`);
  return frameProgram(library, [...imports(library, plan), '', '', 'def plot(data: pd.DataFrame):', ...body].join('\n'), fileName);
}

/** One sentence saying what the chart shows. */
export function describePlan(plan: ChartPlan): string {
  switch (plan.kind) {
    case 'histogram':
      return `Histogram of '${plan.x}' in ${HISTOGRAM_BINS} equal-width bins.`;
    case 'bar':
      if (plan.share) return `Bar chart of each '${plan.x}' level's share of the rows with a value, in percent (top ${TOP_LEVELS}).`;
      return plan.y === null
        ? `Bar chart of the row count per '${plan.x}' level (top ${TOP_LEVELS}).`
        : `Bar chart of the mean '${plan.y}' per '${plan.x}' level (top ${TOP_LEVELS}, highest first).`;
    case 'scatter':
      return `Scatter plot of '${plan.y}' against '${plan.x}'.`;
    case 'line': {
      const per = plan.period === 'exact' ? 'timestamp' : plan.period;
      return plan.y === null ? `Line chart of the row count per ${per} of '${plan.x}'.` : `Line chart of the mean '${plan.y}' per ${per} of '${plan.x}'.`;
    }
    case 'box':
      return plan.x === null ? `Box plot of '${plan.y}'.` : `Box plots of '${plan.y}' for each '${plan.x}' level (top ${TOP_LEVELS}).`;
    case 'heatmap':
      return plan.value === 'correlation'
        ? `Heatmap of the Pearson correlations between ${plan.columns.map((c) => `'${c}'`).join(', ')}.`
        : `Heatmap of row counts for each '${plan.y}' × '${plan.x}' pair (top ${TOP_LEVELS} levels each).`;
  }
}
