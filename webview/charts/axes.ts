/** Axes of the SVG charts: tick labels, grid lines and titles, styled by the panels' style sheet. */
import type { AxisTicks } from '../../src/views/axisTicks.js';
import { svg } from '../shared/dom.js';
import { textWidth, type Plot } from './svgChart.js';

const TICK_GAP = 6;

/** The room a vertical axis takes beside the plot: its widest label, the gap and its title. */
export function verticalAxisWidth(labels: readonly string[], titled: boolean): number {
  return Math.max(0, ...labels.map(textWidth)) + TICK_GAP + (titled ? 18 : 4);
}

/** A vertical axis on the left (with grid lines across the plot) or on the right of the plot. */
export function verticalAxis(
  plot: Plot,
  axis: AxisTicks,
  y: (value: number) => number,
  labels: readonly string[],
  options: { side: 'left' | 'right'; title: string; grid?: boolean },
): SVGElement[] {
  const left = options.side === 'left';
  const x = left ? plot.left - TICK_GAP : plot.right + TICK_GAP;
  const shapes: SVGElement[] = [];
  axis.ticks.forEach((value, i) => {
    const at = y(value);
    if (options.grid) shapes.push(svg('line', { class: 'grid', x1: plot.left, x2: plot.right, y1: at, y2: at }));
    const label = svg('text', { class: 'tick', x, y: at, 'text-anchor': left ? 'end' : 'start', 'dominant-baseline': 'middle' });
    label.textContent = labels[i];
    shapes.push(label);
  });
  if (options.title) {
    const width = verticalAxisWidth(labels, true);
    const tx = left ? plot.left - width + 8 : plot.right + width - 6;
    const ty = (plot.top + plot.bottom) / 2;
    const title = svg('text', { class: 'axis-title', x: tx, y: ty, 'text-anchor': 'middle', transform: `rotate(-90 ${tx} ${ty})` });
    title.textContent = options.title;
    shapes.push(title);
  }
  return shapes;
}

/** A horizontal axis under the plot: labels at positions, and a title under them. */
export function horizontalAxis(plot: Plot, ticks: readonly { at: number; label: string }[], title: string): SVGElement[] {
  const shapes: SVGElement[] = [svg('line', { class: 'axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom })];
  for (const tick of ticks) {
    const label = svg('text', { class: 'tick', x: tick.at, y: plot.bottom + 14, 'text-anchor': 'middle' });
    label.textContent = tick.label;
    shapes.push(label);
  }
  if (title) {
    const text = svg('text', { class: 'axis-title', x: (plot.left + plot.right) / 2, y: plot.bottom + 30, 'text-anchor': 'middle' });
    text.textContent = title;
    shapes.push(text);
  }
  return shapes;
}

/** Room under the plot for the horizontal axis: tick labels, and a title when there is one. */
export function horizontalAxisHeight(titled: boolean): number {
  return titled ? 36 : 20;
}
