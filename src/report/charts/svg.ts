import { markupText } from '../../codeText/markup';
import { px } from '../../views/svgPath';

/**
 * A chart as SVG markup without its outer element, so that a report can inline it in HTML or make it an image file.
 * Every attribute of its elements styles it (no stylesheet reaches an SVG image), and every text in it is escaped.
 */
export interface Chart {
  width: number;
  height: number;
  /** What it shows, in words: the SVG's title and an image's description. */
  title: string;
  body: string;
}

export type Attributes = Record<string, string | number | undefined>;

function attributeList(attributes: Attributes): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${typeof value === 'number' ? px(value) : markupText(value)}"`)
    .join('');
}

/** One element; `children` is markup already (use `text` for any words). */
export function element(name: string, attributes: Attributes, children = ''): string {
  return `<${name}${attributeList(attributes)}>${children}</${name}>`;
}

/** Words of an SVG text or title element, escaped. */
export const text = (words: string): string => markupText(words);

/** A tooltip: the title element a browser shows when the pointer rests on its parent. */
export const tooltip = (words: string): string => element('title', {}, text(words));

/** At most `length` characters (whole code points) of a label, with an ellipsis when cut; the full text goes in a tooltip. */
export function shortLabel(label: string, length: number): string {
  const points = Array.from(label);
  return points.length <= length ? label : `${points.slice(0, length - 1).join('')}…`;
}

export const INK = '#222222';
export const MUTED = '#666666';
export const GRID = '#dddddd';
export const SHADE = '#e4e4e4';
/** Colour-blind-safe series colours (Okabe and Ito), darkest first so that one series prints well in grey. */
export const SERIES = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#999933', '#882255', '#44aa99'];
export const POSITIVE = '#0072b2';
export const NEGATIVE = '#d55e00';

/** The outer SVG element of a chart: inline in HTML, or (`standalone`) as an image file with its namespace. */
export function svgMarkup(chart: Chart, standalone: boolean): string {
  return element(
    'svg',
    {
      ...(standalone ? { xmlns: 'http://www.w3.org/2000/svg' } : {}),
      viewBox: `0 0 ${px(chart.width)} ${px(chart.height)}`,
      width: chart.width,
      height: chart.height,
      role: 'img',
      'aria-label': chart.title,
      'font-family': 'Helvetica, Arial, sans-serif',
      'font-size': 11,
      fill: INK,
    },
    `${tooltip(chart.title)}${chart.body}`,
  );
}
