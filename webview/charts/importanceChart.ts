/** Horizontal bars of feature importances (0–1 shares), largest first; a pair term's bar in a colour of its own. */
import { linearScale, niceTicks, tickLabels } from '../../src/views/axisTicks.js';
import type { ListedTerm } from '../../src/views/pairHeatmap.js';
import { svg } from '../shared/dom.js';
import { horizontalAxis, horizontalAxisHeight } from './axes.js';
import { fitText, SvgChart, textWidth, type ChartBox } from './svgChart.js';

const MAX_LABEL = 180;

function draw(features: readonly ListedTerm[], { width, height }: ChartBox): SVGElement[] {
  const labelWidth = Math.min(MAX_LABEL, Math.max(40, ...features.map((f) => textWidth(f.feature))));
  const plot = { left: labelWidth + 8, top: 4, right: width - 16, bottom: height - horizontalAxisHeight(true) };
  const axis = niceTicks(0, Math.max(0, ...features.map((f) => f.importance)), 4);
  const x = linearScale([0, axis.max], [plot.left, plot.right]);
  const labels = tickLabels(axis.ticks, 'percent');
  const slot = (plot.bottom - plot.top) / Math.max(1, features.length);
  const shapes = axis.ticks.map((value) => svg('line', { class: 'grid', x1: x(value), x2: x(value), y1: plot.top, y2: plot.bottom }));
  features.forEach((f, i) => {
    const top = plot.top + i * slot;
    shapes.push(svg('rect', { class: f.pair ? 'mark bar pair' : 'mark bar', x: plot.left, y: top + slot * 0.15, width: Math.max(0, x(f.importance) - plot.left), height: slot * 0.7 }));
    const label = svg('text', { class: 'tick', x: plot.left - 6, y: top + slot / 2, 'text-anchor': 'end', 'dominant-baseline': 'middle' });
    label.textContent = fitText(f.feature, labelWidth);
    shapes.push(label);
  });
  shapes.push(...horizontalAxis(plot, axis.ticks.map((value, i) => ({ at: x(value), label: labels[i] })), 'Importance'));
  return shapes;
}

/** `features` in the order drawn (top to bottom); `description` is read by screen readers. */
export function importanceChart(description: string, features: readonly ListedTerm[]): SvgChart {
  const size = features.length > 8 ? 'large' : features.length > 4 ? 'medium' : 'small';
  return new SvgChart(description, size, (box) => draw(features, box));
}
