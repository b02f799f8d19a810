/** Turns a visualization's preview spec into chart data the visualization panel draws natively (pure). */
import type { ChartSpec } from '../contract/autotrain';
import { formatSignificant } from './format';

export interface PreviewDataset {
  label: string;
  /** Bar/line values, or [low, high] floating bars, or {x, y} scatter points. */
  data: (number | [number, number] | { x: number; y: number })[];
}

export type ChartPreview =
  | {
      kind: 'chart';
      type: 'bar' | 'line' | 'scatter';
      title: string;
      labels: string[];
      datasets: PreviewDataset[];
      xTitle: string;
      yTitle: string;
    }
  | {
      kind: 'heatmap';
      title: string;
      xLabels: string[];
      yLabels: string[];
      cells: (number | null)[][];
      min: number;
      max: number;
    }
  | { kind: 'empty'; title: string; reason: string };

const NO_ROWS = 'The preview needs the dataset rows; the summary alone has none to draw.';

export function chartPreview(spec: ChartSpec): ChartPreview {
  const { title } = spec;
  switch (spec.kind) {
    case 'histogram':
      if (!spec.bins.length) return { kind: 'empty', title, reason: NO_ROWS };
      return {
        kind: 'chart',
        type: 'bar',
        title,
        labels: spec.bins.map((b) => `${formatSignificant(b.lower)} to ${formatSignificant(b.upper)}`),
        datasets: [{ label: 'Count', data: spec.bins.map((b) => b.count) }],
        xTitle: spec.x,
        yTitle: 'Count',
      };
    case 'bar': {
      if (!spec.bars.length) return { kind: 'empty', title, reason: NO_ROWS };
      const valueLabel = spec.aggregate === 'mean' && spec.y ? `Mean of ${spec.y}` : spec.aggregate === 'share' ? '% of rows' : 'Count';
      return {
        kind: 'chart',
        type: 'bar',
        title,
        labels: spec.bars.map((b) => b.label),
        datasets: [{ label: valueLabel, data: spec.bars.map((b) => b.value) }],
        xTitle: spec.x,
        yTitle: valueLabel,
      };
    }
    case 'scatter':
      if (!spec.points.length) return { kind: 'empty', title, reason: NO_ROWS };
      return {
        kind: 'chart',
        type: 'scatter',
        title,
        labels: [],
        datasets: [{ label: `${spec.y} by ${spec.x}`, data: spec.points.map((p) => ({ x: p.x, y: p.y })) }],
        xTitle: spec.x,
        yTitle: spec.y,
      };
    case 'line':
      if (!spec.points.length) return { kind: 'empty', title, reason: NO_ROWS };
      return {
        kind: 'chart',
        type: 'line',
        title,
        labels: spec.points.map((p) => p.x),
        datasets: [{ label: spec.y, data: spec.points.map((p) => p.y) }],
        xTitle: spec.x,
        yTitle: spec.y,
      };
    case 'box':
      if (!spec.groups.length) return { kind: 'empty', title, reason: NO_ROWS };
      return {
        kind: 'chart',
        type: 'bar',
        title,
        labels: spec.groups.map((g) => g.label),
        datasets: [
          { label: 'Min to max', data: spec.groups.map((g) => [g.min, g.max] as [number, number]) },
          { label: 'Quartiles (Q1 to Q3)', data: spec.groups.map((g) => [g.q1, g.q3] as [number, number]) },
          { label: 'Median', data: spec.groups.map((g) => [g.median, g.median] as [number, number]) },
        ],
        xTitle: spec.x ?? '',
        yTitle: spec.y,
      };
    case 'heatmap': {
      const values = spec.matrix.flat().filter((v): v is number => v !== null && Number.isFinite(v));
      if (!values.length) return { kind: 'empty', title, reason: NO_ROWS };
      return {
        kind: 'heatmap',
        title,
        xLabels: spec.x_labels,
        yLabels: spec.y_labels,
        cells: spec.matrix,
        min: Math.min(...values),
        max: Math.max(...values),
      };
    }
  }
}
