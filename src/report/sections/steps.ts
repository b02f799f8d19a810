import { formatNumber, formatPercent } from '../../views/format';
import { BAND_TEXT } from '../../views/band';
import { featureSeries, hasBand, listFeatures } from '../../views/profileSeries';
import { pairChart } from '../charts/pairs';
import { categoryChart, MAX_CATEGORY_BARS, stepChart } from '../charts/steps';
import { paragraph, type Block } from '../document';
import { partHeading, unitHeading, type ProfileUnit, type ReportPart, type ReportView } from '../view';

export const STEPS = { id: 'steps', text: 'Feature steps' } as const;

/** What the contributions add up to, in the units of the model's score. */
function scoreUnits(view: ReportView): string {
  if (view.link === 'range') return 'in units of the target';
  return view.link === 'logistic' ? 'in log-odds' : 'in units of the score';
}

function featureFigures(whose: string, unit: ProfileUnit): Block[] {
  return listFeatures(unit.profile, '', 'importance').flatMap(({ feature, importance }): Block[] => {
    const series = featureSeries(unit.profile, feature);
    if (!series) return [];
    const title = `Steps of ${feature}${whose ? ` (${whose})` : ''}`;
    const about = `${feature}: importance ${formatPercent(importance)}${hasBand(series) ? `; the band: ${BAND_TEXT}` : ''}`;
    if (series.kind === 'numeric') {
      return [{ kind: 'figure', chart: stepChart(series, title), caption: `${about}; ${series.bins.length} bins.` }];
    }
    const count = series.categories.length;
    const drawn = count > MAX_CATEGORY_BARS ? `; the ${MAX_CATEGORY_BARS} categories with the most training rows of ${count} (the exported code holds all)` : `; ${count} categories`;
    return [{ kind: 'figure', chart: categoryChart(series, title), caption: `${about}${drawn}.` }];
  });
}

/** The pair terms of a unit, most important first: a grid of contributions over the two features' coarse bins each. */
function pairFigures(whose: string, unit: ProfileUnit): Block[] {
  const pairs = unit.profile.interactions ?? [];
  if (!pairs.length) return [];
  return [
    paragraph(
      `Pair terms: each adds one more contribution, for the cell of its two features' coarse bins a row falls in, on top of the features' own steps. ${pairs.length === 1 ? 'It is' : 'They are'} centred: over the training rows, the mean of each row and each column of cells is 0.`,
    ),
    ...pairs.map((pair): Block => {
      const name = `${pair.features[0]} × ${pair.features[1]}`;
      return { kind: 'figure', chart: pairChart(pair, `Pair ${name}${whose ? ` (${whose})` : ''}`), caption: `${name}: importance ${formatPercent(pair.importance)}; ${pair.bins[0].length} × ${pair.bins[1].length} cells.` };
    }),
  ];
}

function unitSteps(view: ReportView, part: ReportPart, unit: ProfileUnit, index: number): Block[] {
  if (unit.allClasses) return [];
  const whose = [view.partitioned ? part.label : '', unit.className !== undefined ? `class ${unit.className}` : ''].filter(Boolean).join(', ');
  return [
    ...unitHeading(view, STEPS.id, part, unit, index),
    paragraph(`Base value: ${formatNumber(unit.profile.base_value)}.`),
    ...featureFigures(whose, unit),
    ...pairFigures(whose, unit),
  ];
}

/** Every feature's contribution steps, per partition and per class model, the most important first. */
export function stepsSection(view: ReportView): Block[] {
  return [
    { kind: 'heading', level: 2, ...STEPS },
    paragraph(
      `Each feature adds one contribution to the score (${scoreUnits(view)}): a step for each bin of a numeric feature's values, or for each category, and one for a missing value, drawn beside the steps (dashed when no training row was missing). A category not seen in training takes the missing value's step. Shaded along the bottom: the share of training rows in each bin. Shaded around the steps of a model fitted in bags: ${BAND_TEXT} (the standard error of each step from how far the bags disagree), where the data could have put the step; ± in a tooltip is the same band. Rest the pointer on a step for its numbers.`,
    ),
    ...view.parts.flatMap((part) => [...partHeading(view, STEPS.id, part), ...part.units.flatMap((unit, i) => unitSteps(view, part, unit, i))]),
  ];
}
