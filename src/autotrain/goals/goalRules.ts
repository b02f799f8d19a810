import type { DatasetSummary, Goal, Label, SummaryField } from '../../contract/autotrain';
import type { DataFrame } from '../../engine';
import { columnNumbers, columnTexts, levelCounts } from '../columns/columns';
import { fieldByName, isCategoricalField, isDateField, isNumericField, variation } from '../columns/fieldRoles';
import { derivation, measuredColumns } from '../labels/labelEvidence';
import { rankLabelCandidates } from '../labels/labelRules';
import { fmt, pearson, round } from '../columns/stats';

type Draft = Omit<Goal, 'index'>;

const MAX_HEATMAP_COLUMNS = 10;

function histogramGoal(f: SummaryField): Draft {
  const p = f.properties;
  return {
    question: `What is the distribution of ${f.column}?`,
    visualization: `histogram of ${f.column}`,
    rationale: `${f.column} ranges from ${fmt(p.min as number)} to ${fmt(p.max as number)} (mean ${fmt(p.mean as number)}, std ${fmt(p.std as number)}); a histogram shows its shape, skew and outliers.`,
    columns: [f.column],
  };
}

function countGoal(f: SummaryField): Draft {
  return {
    question: `How many rows fall into each ${f.column} category?`,
    visualization: `bar chart of counts of ${f.column}`,
    rationale: `${f.column} has ${f.properties.num_unique_values} levels; counting them shows which dominate and which are rare.`,
    columns: [f.column],
  };
}

/** Correlation ratio η² of a numeric column across the levels of a category (0 when it cannot be computed). */
function etaSquared(frame: DataFrame, category: string, numeric: string): number {
  const groups = columnTexts(frame.column(category));
  const ys = columnNumbers(frame.column(numeric));
  const sums = new Map<string, { n: number; s: number }>();
  let n = 0;
  let total = 0;
  for (let i = 0; i < ys.length; i++) {
    const g = groups[i];
    if (g === null || !Number.isFinite(ys[i])) continue;
    const acc = sums.get(g) ?? { n: 0, s: 0 };
    acc.n++;
    acc.s += ys[i];
    sums.set(g, acc);
    n++;
    total += ys[i];
  }
  if (n < 2) return 0;
  const grand = total / n;
  let between = 0;
  for (const { n: k, s } of sums.values()) between += k * (s / k - grand) ** 2;
  let all = 0;
  for (let i = 0; i < ys.length; i++) if (groups[i] !== null && Number.isFinite(ys[i])) all += (ys[i] - grand) ** 2;
  return all === 0 ? 0 : between / all;
}

/** Pairs of columns where one is computed from the other (a sum, product or near-copy): their scatter says nothing. */
function derivedPairs(summary: DatasetSummary, frame: DataFrame | undefined): Set<string> {
  const pairs = new Set<string>();
  if (!frame) return pairs;
  const measured = measuredColumns(summary, frame);
  for (const column of measured) {
    for (const source of derivation(frame, column, measured)?.sources ?? []) {
      pairs.add(`${column}\u0000${source}`);
      pairs.add(`${source}\u0000${column}`);
    }
  }
  return pairs;
}

function scatterGoals(numeric: SummaryField[], frame: DataFrame | undefined, derived: Set<string>): Draft[] {
  if (numeric.length < 2) return [];
  let best: { x: SummaryField; y: SummaryField; r: number | null } = { x: numeric[0], y: numeric[1], r: null };
  if (frame) {
    let bestAbs = -1;
    for (let i = 0; i < numeric.length; i++) {
      for (let j = i + 1; j < numeric.length; j++) {
        if (derived.has(`${numeric[i].column}\u0000${numeric[j].column}`)) continue;
        const { r } = pearson(columnNumbers(frame.column(numeric[i].column)), columnNumbers(frame.column(numeric[j].column)));
        if (r !== null && Math.abs(r) > bestAbs) {
          bestAbs = Math.abs(r);
          best = { x: numeric[i], y: numeric[j], r };
        }
      }
    }
  }
  const { x, y, r } = best;
  return [{
    question: `How does ${y.column} relate to ${x.column}?`,
    visualization: `scatter plot of ${x.column} vs ${y.column}`,
    rationale: r === null
      ? `${x.column} and ${y.column} are the most variable numeric columns; a scatter plot shows whether they move together.`
      : `${x.column} and ${y.column} have the strongest linear relationship among the numeric columns (r = ${round(r, 3)}); a scatter plot shows its shape.`,
    columns: [x.column, y.column],
  }];
}

/** Two category × numeric pairs: the most separating when rows are available, else the first by variation. */
function groupedPairs(categories: SummaryField[], numeric: SummaryField[], frame: DataFrame | undefined): { cat: SummaryField; num: SummaryField }[] {
  const pairsOf = (cats: SummaryField[], nums: SummaryField[]) => cats.flatMap((cat) => nums.map((num) => ({ cat, num })));
  // Without rows only the first two are wanted: a summary of thousands of columns has millions of pairs.
  if (!frame) return pairsOf(categories.slice(0, 2), numeric.slice(0, 2)).slice(0, 2);
  const pairs = pairsOf(categories, numeric);
  const scored = pairs.map((p, i) => ({ ...p, i, eta: etaSquared(frame, p.cat.column, p.num.column) }));
  return scored.sort((a, b) => b.eta - a.eta || a.i - b.i).slice(0, 2);
}

/** What the class shares of a target say, from the rows when there are some. */
function balanceRationale(column: string, classes: number, frame: DataFrame | undefined): string {
  const lead = `${column} is the most likely training target (${classes === 2 ? 'binary' : `${classes} classes`})`;
  const levels = frame?.has(column) ? levelCounts(columnTexts(frame.column(column))) : [];
  if (levels.length < 2) return `${lead}; the share of each class decides whether accuracy alone says how good a model is.`;
  const total = levels.reduce((s, l) => s + l.count, 0);
  const share = (count: number): string => `${fmt(round((100 * count) / total, 1))}%`;
  const [largest, smallest] = [levels[0], levels[levels.length - 1]];
  return `${lead}: '${largest.value}' is ${share(largest.count)} of the labelled rows and '${smallest.value}' ${share(smallest.count)}; the less even the classes, the more per-class recall and macro F1 say beyond accuracy.`;
}

function classBalanceGoal(label: Label, summary: DatasetSummary, frame: DataFrame | undefined): Draft {
  const classes = fieldByName(summary, label.column)?.properties.num_unique_values ?? 2;
  return {
    question: `How balanced are the classes of ${label.column}?`,
    visualization: `bar chart of class balance of ${label.column}`,
    rationale: balanceRationale(label.column, classes, frame),
    columns: [label.column],
    target_column: label.column,
    model_type: label.model_type,
  };
}

/** `balance`: the class balance goal of a classifier label. */
function labelGoals(label: Label | undefined, balance: Draft | undefined, categories: SummaryField[], numeric: SummaryField[]): Draft[] {
  if (!label) return [];
  const target = { target_column: label.column, model_type: label.model_type };
  const other = label.model_type === 'classifier'
    ? categories.find((c) => c.column !== label.column)
    : categories[0];
  const goals: Draft[] = [
    balance ??
      { question: `What is the distribution of ${label.column}?`, visualization: `histogram of ${label.column}`,
        rationale: `${label.column} is the most likely training target (numeric); its spread and skew bound what a regressor can explain.`, columns: [label.column], ...target },
  ];
  if (other && label.model_type === 'classifier') {
    goals.push({
      question: `How does ${label.column} vary with ${other.column}?`,
      visualization: `heatmap of ${label.column} by ${other.column}`,
      rationale: `Counting ${label.column} within each level of ${other.column} shows whether the target rate differs by group.`,
      columns: [label.column, other.column],
      ...target,
    });
  } else if (other && numeric.some((n) => n.column === label.column)) {
    goals.push({
      question: `How does ${label.column} differ across ${other.column}?`,
      visualization: `box plot of ${label.column} by ${other.column}`,
      rationale: `Comparing ${label.column} across the levels of ${other.column} shows whether the target differs by group.`,
      columns: [other.column, label.column],
      ...target,
    });
  }
  return goals;
}

function mapGoals(numeric: SummaryField[]): Draft[] {
  const lat = numeric.find((f) => f.properties.semantic_type === 'latitude');
  const lon = numeric.find((f) => f.properties.semantic_type === 'longitude');
  if (!lat || !lon) return [];
  return [{
    question: 'Where are the rows located?',
    visualization: `scatter plot of ${lon.column} vs ${lat.column}`,
    rationale: `${lat.column} and ${lon.column} are coordinates; plotting longitude against latitude maps the rows.`,
    columns: [lon.column, lat.column],
  }];
}

/** The correlation heatmap of the numeric columns, the likely target first so it is always in view. */
function heatmapGoals(numeric: SummaryField[], target: SummaryField | undefined): Draft[] {
  if (numeric.length < 3) return [];
  const first = target && isNumericField(target) ? [target] : [];
  const ordered = [...first, ...numeric.filter((f) => f.column !== target?.column)];
  const cols = ordered.slice(0, MAX_HEATMAP_COLUMNS).map((f) => f.column);
  return [{
    question: 'Which numeric columns are correlated with each other?',
    visualization: `heatmap of correlations between ${cols.join(', ')}`,
    rationale: `A correlation matrix of the ${cols.length} numeric columns shows redundant features and strong relationships at a glance.`,
    columns: cols,
  }];
}

/** Takes the first of every kind, then the second of every kind, and so on, dropping repeated visualizations. */
function interleave(kinds: Draft[][]): Draft[] {
  const out: Draft[] = [];
  const byKey = new Map<string, Draft>();
  const longest = kinds.reduce((most, k) => Math.max(most, k.length), 0);
  for (let round = 0; round < longest; round++) {
    for (const kind of kinds) {
      const goal = kind[round];
      if (!goal) continue;
      const key = goal.visualization.toLowerCase();
      const seen = byKey.get(key);
      if (seen) {
        if (goal.target_column && !seen.target_column) Object.assign(seen, { target_column: goal.target_column, model_type: goal.model_type });
        continue;
      }
      byKey.set(key, goal);
      out.push(goal);
    }
  }
  return out;
}

/**
 * Every rule-based goal, best first (autotrain.md §7.2): histograms by coefficient of variation, count bars, the
 * most correlated numeric pair, a numeric by a category (mean bar, box plot), a numeric over a date, the likely
 * label, a coordinate map and a correlation heatmap, interleaved so the first goals cover different kinds.
 */
export function ruleGoals(summary: DatasetSummary, frame: DataFrame | undefined, persona?: string): Goal[] {
  // A two-valued number is a flag: its counts are a bar chart, and it has no distribution, spread or trend to draw.
  const numeric = summary.fields.filter((f) => isNumericField(f) && f.properties.num_unique_values > 2);
  const byVariation = numeric.map((f, i) => ({ f, i, cv: variation(f) })).sort((a, b) => b.cv - a.cv || a.i - b.i).map((x) => x.f);
  const categories = summary.fields.filter((f) => isCategoricalField(f) || (isNumericField(f) && f.properties.num_unique_values === 2));
  const dates = summary.fields.filter(isDateField);
  const usable = frame && summary.fields.every((f) => frame.has(f.column)) ? frame : undefined;
  const pairs = groupedPairs(categories, byVariation, usable);
  const label = rankLabelCandidates(summary, usable)[0];
  // The likely classifier target's counts are its class balance, in shares.
  const balance = label?.model_type === 'classifier' ? classBalanceGoal(label, summary, usable) : undefined;
  const counts = categories.map((f) => (balance && f.column === label?.column ? balance : countGoal(f)));
  const kinds: Draft[][] = [
    byVariation.map(histogramGoal),
    counts,
    scatterGoals(byVariation, usable, derivedPairs(summary, usable)),
    pairs.slice(0, 1).map(({ cat, num }) => ({
      question: `What is the average ${num.column} for each ${cat.column}?`,
      visualization: `bar chart of mean ${num.column} by ${cat.column}`,
      rationale: `Comparing the mean of ${num.column} across the ${cat.properties.num_unique_values} levels of ${cat.column} shows which groups differ.`,
      columns: [cat.column, num.column],
    })),
    pairs.slice(pairs.length > 1 ? 1 : 0).slice(0, 1).map(({ cat, num }) => ({
      question: `How is ${num.column} spread within each ${cat.column}?`,
      visualization: `box plot of ${num.column} by ${cat.column}`,
      rationale: `Box plots of ${num.column} per ${cat.column} compare medians, spread and outliers between groups.`,
      columns: [cat.column, num.column],
    })),
    dates.length && byVariation.length
      ? [{
        question: `How does ${byVariation[0].column} change over ${dates[0].column}?`,
        visualization: `line chart of ${byVariation[0].column} over ${dates[0].column}`,
        rationale: `${dates[0].column} runs from ${dates[0].properties.min} to ${dates[0].properties.max}; a line chart of ${byVariation[0].column} shows trend and seasonality.`,
        columns: [dates[0].column, byVariation[0].column],
      }]
      : [],
    labelGoals(label, balance, categories, numeric),
    mapGoals(numeric),
    heatmapGoals(numeric, fieldByName(summary, label?.column ?? '')),
  ];
  return interleave(kinds).map((g, index) => ({
    index,
    ...g,
    rationale: persona ? `For ${persona}: ${g.rationale}` : g.rationale,
  }));
}
