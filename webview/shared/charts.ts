/** Chart.js set up for the panels: only the parts used, theme colours, and redraw on theme change. */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartConfiguration,
  type ChartOptions,
} from 'chart.js';
import { formatTick, percentTick } from '../../src/views/format.js';
import { h } from './dom.js';
import { onThemeChange, readPalette, type Palette } from './theme.js';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
);
// Numeric ticks without Chart.js's Intl formatter, whose first use costs a page over 10 ms before its first chart.
Chart.defaults.scales.linear.ticks.callback = (value, _index, ticks) => formatTick(Number(value), ticks);

type Build = (palette: Palette) => ChartConfiguration;

interface LiveChart {
  canvas: HTMLCanvasElement;
  build: Build;
  chart: Chart;
}

const liveSets = new Set<ChartSet>();
/** A chart of the current render is about to be drawn (see `ChartSet.create`). */
let firstOfRenderPending = false;
onThemeChange(() => {
  for (const set of liveSets) set.redraw();
});

/** Axis and legend styling from the theme, merged under a chart's own options. */
export function themedOptions(palette: Palette, options: ChartOptions = {}): ChartOptions {
  Chart.defaults.color = palette.foreground;
  Chart.defaults.borderColor = palette.grid;
  Chart.defaults.font.family = palette.fontFamily;
  Chart.defaults.font.size = palette.fontSize;
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    ...options,
    plugins: {
      ...options.plugins,
      legend: { ...options.plugins?.legend, labels: { color: palette.foreground, boxWidth: 12, ...options.plugins?.legend?.labels } },
      tooltip: {
        backgroundColor: palette.background,
        titleColor: palette.foreground,
        bodyColor: palette.foreground,
        borderColor: palette.grid,
        borderWidth: 1,
        ...options.plugins?.tooltip,
      },
    },
  };
}

/** Tick labels of a percentage axis (values are 0–1 fractions). */
export function percentTicks(value: string | number, _index: number, ticks: { value: number }[]): string {
  return percentTick(Number(value), ticks);
}

/** Axis options with a title, in the theme's colours. */
export function axis(palette: Palette, title: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: { display: Boolean(title), text: title, color: palette.muted },
    grid: { color: palette.grid },
    ticks: { color: palette.foreground },
    ...extra,
  };
}

/** The charts of one view: created together, redrawn on theme change, destroyed before the view re-renders. */
export class ChartSet {
  private readonly charts: LiveChart[] = [];

  constructor() {
    liveSets.add(this);
  }

  /**
   * A chart in a sized, labelled container (`description` is read by screen readers). It is drawn once the
   * container is in the page; the first chart of a render at once, the others a frame later, so the first is on
   * screen without waiting for the rest (each takes tens of milliseconds).
   */
  create(description: string, build: Build, size: 'small' | 'medium' | 'large' = 'medium'): HTMLElement {
    const canvas = h('canvas', { role: 'img', 'aria-label': description });
    const container = h('div', { class: `chart chart-${size}` }, canvas);
    const draw = () => {
      if (!canvas.isConnected) return;
      this.charts.push({ canvas, build, chart: new Chart(canvas, build(readPalette())) });
    };
    if (firstOfRenderPending) {
      requestAnimationFrame(draw);
    } else {
      firstOfRenderPending = true;
      queueMicrotask(() => {
        firstOfRenderPending = false;
        draw();
      });
    }
    return container;
  }

  /** Finds the live chart drawn on a canvas inside `container`. */
  chartIn(container: HTMLElement): Chart | undefined {
    return this.charts.find((c) => container.contains(c.canvas))?.chart;
  }

  redraw(): void {
    const palette = readPalette();
    const detached = this.charts.filter((live) => !live.canvas.isConnected);
    for (const live of detached) live.chart.destroy();
    this.charts.splice(0, this.charts.length, ...this.charts.filter((live) => live.canvas.isConnected));
    for (const live of this.charts) {
      live.chart.destroy();
      live.chart = new Chart(live.canvas, live.build(palette));
    }
  }

  clear(): void {
    for (const live of this.charts) live.chart.destroy();
    this.charts.length = 0;
  }
}
