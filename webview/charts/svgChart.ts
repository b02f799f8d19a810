/**
 * The frame of the panels' SVG charts: a sized, labelled container whose SVG is drawn from its size, when it first
 * gets one and whenever it changes (one ResizeObserver for every chart, so the first drawing happens in the frame
 * that lays the container out, without reading the layout), and on demand after its data changed. Colours come from
 * the style sheet's theme variables, so a theme change needs no redrawing.
 */
import { h, svg } from '../shared/dom.js';

export interface ChartBox {
  width: number;
  height: number;
}

/** The plot area inside the chart, in pixels from its top left corner. */
export interface Plot {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type ChartSize = 'small' | 'medium' | 'large';

const drawers = new WeakMap<Element, (box: ChartBox) => void>();
let observer: ResizeObserver | undefined;

function observe(element: Element, draw: (box: ChartBox) => void): void {
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      const { width, height } = entry.contentRect;
      if (width > 0 && height > 0) drawers.get(entry.target)?.({ width, height });
    }
  });
  drawers.set(element, draw);
  observer.observe(element);
}

/** Text width in pixels as the charts' 11px labels take it, without measuring (measuring would force a layout). */
export function textWidth(text: string): number {
  return text.length * 6.5;
}

/** A label cut to at most `pixels` wide, with an ellipsis. */
export function fitText(text: string, pixels: number): string {
  const chars = Math.max(1, Math.floor(pixels / 6.5));
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1))}…`;
}

export class SvgChart {
  readonly element: HTMLElement;
  private readonly root: SVGElement;
  private box: ChartBox | undefined;

  /** `description` is what screen readers read for the chart; `draw` returns its shapes for a size. */
  constructor(
    description: string,
    size: ChartSize,
    private draw: (box: ChartBox) => SVGElement[] = () => [],
  ) {
    this.root = svg('svg', { role: 'img', 'aria-label': description });
    this.element = h('div', { class: `chart chart-${size}` }, this.root);
    observe(this.element, (box) => {
      this.box = box;
      this.paint();
    });
  }

  /** Draws the chart again at its size, with new shapes and description when given. */
  update(description?: string, draw?: (box: ChartBox) => SVGElement[]): void {
    if (description !== undefined) this.root.setAttribute('aria-label', description);
    if (draw) this.draw = draw;
    this.paint();
  }

  /** The chart's x for a pointer event's clientX (the SVG's left edge is 0). */
  localX(clientX: number): number {
    return clientX - this.root.getBoundingClientRect().left;
  }

  /** Stops redrawing on resize (the view dropped the chart). */
  dispose(): void {
    observer?.unobserve(this.element);
  }

  private paint(): void {
    if (!this.box) return;
    const { width, height } = this.box;
    this.root.setAttribute('viewBox', `0 0 ${width} ${height}`);
    this.root.replaceChildren(...this.draw(this.box));
  }
}

/** The charts of one view, dropped together before it renders again. */
export class ChartList {
  private readonly charts: SvgChart[] = [];

  add<C extends SvgChart>(chart: C): C {
    this.charts.push(chart);
    return chart;
  }

  clear(): void {
    for (const chart of this.charts) chart.dispose();
    this.charts.length = 0;
  }
}
