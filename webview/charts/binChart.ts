/**
 * The chart of a feature's bins, numeric steps or category bars (the layout of each kind is its own module), with
 * what both share: the contribution axis on the left, the frequency axis on the right, the missing-value bin in a
 * slot of its own at the right, the selected bins behind the marks, the version's fitted steps faded behind edited
 * ones, and which bin lies under a pointer.
 */
import { MISSING_BIN } from '../../src/engine/model/edits.js';
import { linearScale, niceTicks, tickLabels } from '../../src/views/axisTicks.js';
import { contributionTicks } from '../../src/views/binAxes.js';
import type { BinRange, BinRef } from '../../src/views/binSelection.js';
import { svg } from '../shared/dom.js';
import { horizontalAxis, horizontalAxisHeight, verticalAxis, verticalAxisWidth } from './axes.js';
import { bandBar, fittedBar, freqsOf, signedBar, type BinChartData, type BinLayout } from './binMarks.js';
import { categoryLayout } from './categoryChart.js';
import { stepLayout } from './stepChart.js';
import { SvgChart, type ChartBox, type Plot } from './svgChart.js';

interface BinGeometry {
  plot: Plot;
  /** The non-missing bins' part of the plot ends here; the missing-value slot follows. */
  binsRight: number;
  missing: { left: number; right: number };
  edges: number[];
}

const MISSING_SLOT = 32;
const SLOT_GAP = 10;

function layoutOf(data: BinChartData, left: number, right: number): BinLayout {
  const { series, fitted } = data;
  return series.kind === 'numeric'
    ? stepLayout(series, fitted?.kind === 'numeric' ? fitted : undefined, data.scales, left, right)
    : categoryLayout(series, fitted?.kind === 'categorical' ? fitted : undefined, left, right);
}

export class BinChart extends SvgChart {
  private geometry: BinGeometry | undefined;

  constructor(
    description: string,
    private data: BinChartData,
  ) {
    super(description, 'medium');
    this.update(undefined, (box) => this.drawAll(box));
  }

  /** Draws new data (an edit, a new selection) at once. */
  show(data: BinChartData, description?: string): void {
    this.data = data;
    this.update(description);
  }

  /** The bin under a pointer at `clientX`: the nearest one inside the plot. */
  binAt(clientX: number): BinRef | undefined {
    const geometry = this.geometry;
    if (!geometry) return undefined;
    const x = this.localX(clientX);
    if (this.data.series.missing && x >= geometry.missing.left - SLOT_GAP / 2) return MISSING_BIN;
    const { edges } = geometry;
    if (edges.length < 2) return undefined;
    let low = 0;
    let high = edges.length - 2;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (edges[mid] <= x) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  private drawAll({ width, height }: ChartBox): SVGElement[] {
    const { series, fitted, scales, selection, title } = this.data;
    const scoreAxis = contributionTicks(series, fitted, scales);
    const freqAxis = niceTicks(0, Math.max(0, ...freqsOf(series)), 4);
    const scoreLabels = tickLabels(scoreAxis.ticks);
    const freqLabels = tickLabels(freqAxis.ticks, 'percent');
    const plot: Plot = {
      left: verticalAxisWidth(scoreLabels, true),
      top: 8,
      right: width - verticalAxisWidth(freqLabels, true),
      bottom: height - horizontalAxisHeight(true),
    };
    const binsRight = series.missing ? plot.right - MISSING_SLOT - SLOT_GAP : plot.right;
    const layout = layoutOf(this.data, plot.left, binsRight);
    const geometry: BinGeometry = { plot, binsRight, missing: { left: plot.right - MISSING_SLOT, right: plot.right }, edges: layout.edges };
    this.geometry = geometry;
    const y = linearScale([scoreAxis.min, scoreAxis.max], [plot.bottom, plot.top]);
    const freqY = linearScale([freqAxis.min, freqAxis.max], [plot.bottom, plot.top]);
    const shapes: SVGElement[] = [
      ...verticalAxis(plot, scoreAxis, y, scoreLabels, { side: 'left', title: 'Contribution', grid: true }),
      ...verticalAxis(plot, freqAxis, freqY, freqLabels, { side: 'right', title: 'Frequency' }),
    ];
    if (selection) shapes.push(selectionShape(selection, geometry));
    shapes.push(svg('line', { class: 'zero', x1: plot.left, x2: plot.right, y1: y(0), y2: y(0) }));
    shapes.push(...layout.marks(y, freqY));
    const ticks = [...layout.ticks];
    if (series.missing) {
      const { left: x, right } = geometry.missing;
      const missing = series.missing;
      shapes.push(
        svg('line', { class: 'separator', x1: x - SLOT_GAP / 2, x2: x - SLOT_GAP / 2, y1: plot.top, y2: plot.bottom }),
        svg('rect', { class: 'freq-bar', x: x + 4, y: freqY(missing.freq), width: right - x - 8, height: Math.max(0, plot.bottom - freqY(missing.freq)) }),
      );
      shapes.push(...bandBar(x + 2, right - x - 4, y, fitted?.missing ?? missing));
      if (fitted?.missing && fitted.missing.score !== missing.score) shapes.push(fittedBar(x + 4, right - x - 8, y, fitted.missing.score));
      shapes.push(signedBar(x + 6, right - x - 12, y, missing.score));
      ticks.push({ at: (x + right) / 2, label: 'Missing' });
    }
    shapes.push(...horizontalAxis(plot, ticks, title));
    return shapes;
  }
}

function selectionShape(selection: BinRange, { plot, edges, binsRight, missing }: BinGeometry): SVGElement {
  const [left, right] =
    selection === MISSING_BIN ? [missing.left - 2, missing.right + 2] : [edges[selection[0]] ?? plot.left, edges[selection[1] + 1] ?? binsRight];
  return svg('rect', { class: 'selection', x: left, y: plot.top, width: Math.max(2, right - left), height: plot.bottom - plot.top });
}
