import { formatPercent } from '../../views/format';
import { listFeatures } from '../../views/profileSeries';
import { horizontalBars } from '../charts/bars';
import { niceTicks } from '../../views/axisTicks';
import { numberCell, paragraph, type Block } from '../document';
import { partHeading, unitHeading, type ProfileUnit, type ReportPart, type ReportView } from '../view';

export const IMPORTANCES = { id: 'importances', text: 'Feature importances' } as const;

/** The features a chart draws at most; the table under it lists every one. */
export const MAX_IMPORTANCE_BARS = 40;

function unitImportances(view: ReportView, part: ReportPart, unit: ProfileUnit, index: number): Block[] {
  const pairs = (unit.profile.interactions ?? []).map((pair) => ({ feature: `${pair.features[0]} × ${pair.features[1]}`, importance: pair.importance }));
  const features = [...listFeatures(unit.profile, '', 'importance'), ...pairs].sort((a, b) => b.importance - a.importance);
  const shown = features.slice(0, MAX_IMPORTANCE_BARS);
  const whose = [view.partitioned ? part.label : '', unit.className !== undefined ? `class ${unit.className}` : unit.allClasses ? 'all classes' : ''].filter(Boolean).join(', ');
  const title = `Feature importances${whose ? ` (${whose})` : ''}`;
  const high = shown.reduce((max, f) => Math.max(max, f.importance), 0);
  const chart = horizontalBars(
    shown.map((f) => ({ label: f.feature, value: f.importance, valueText: formatPercent(f.importance), tip: `${f.feature}: ${formatPercent(f.importance)}` })),
    niceTicks(0, high, 4),
    { label: 'importance', format: 'percent' },
    title,
  );
  const caption = features.length > shown.length ? `${title}: the ${shown.length} most important of ${features.length} features.` : `${title}.`;
  return [
    ...unitHeading(view, IMPORTANCES.id, part, unit, index),
    { kind: 'figure', chart, caption },
    { kind: 'table', head: ['Feature or pair', 'Importance'], rows: features.map((f) => [f.feature, numberCell(formatPercent(f.importance), f.importance)]) },
  ];
}

/** Each partition's (and each class model's) feature importances, as bars and as a table. */
export function importancesSection(view: ReportView): Block[] {
  return [
    { kind: 'heading', level: 2, ...IMPORTANCES },
    paragraph(
      "How much each feature moves the predictions: a feature's importance grows with how far apart its steps are and how evenly the training rows spread over them. A model's importances, its pair terms' (named a × b) included, sum to 100%; those of all classes are the mean of the class models' feature importances.",
    ),
    ...view.parts.flatMap((part) => [...partHeading(view, IMPORTANCES.id, part), ...part.units.flatMap((unit, i) => unitImportances(view, part, unit, i))]),
  ];
}
