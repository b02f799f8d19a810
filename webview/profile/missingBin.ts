/** A feature's missing-value bin in the profile panel: a labelled bar on the feature's contribution range. */
import { formatNumber, formatPercent } from '../../src/views/format.js';
import { missingBar } from '../../src/views/missingBin.js';
import type { FeatureSeries } from '../../src/views/profileSeries.js';
import { h, icon } from '../shared/dom.js';

export function missingBin(series: FeatureSeries): HTMLElement {
  const bar = missingBar(series);
  if (!bar) return h('p', { class: 'muted' }, icon('circle-slash'), ' No missing values in the training data.');
  const fill = h('span', { class: `missing-fill ${bar.tone}` });
  fill.style.setProperty('--from', bar.from.toFixed(4));
  fill.style.setProperty('--to', bar.to.toFixed(4));
  const zero = h('span', { class: 'missing-zero' });
  zero.style.setProperty('--zero', bar.zero.toFixed(4));
  const range = `on this feature's range of contributions, ${formatNumber(bar.low)} to ${formatNumber(bar.high)}`;
  return h(
    'div',
    { class: 'missing-bin', role: 'group', 'aria-label': 'Missing-value bin' },
    h('strong', { text: 'Missing values' }),
    h(
      'span',
      { class: 'missing-scale', role: 'img', 'aria-label': `Contribution ${formatNumber(bar.score)} ${range}`, title: `Contribution ${formatNumber(bar.score)} ${range}` },
      h('span', { class: 'muted', text: formatNumber(bar.low) }),
      h('span', { class: 'missing-track' }, zero, fill),
      h('span', { class: 'muted', text: formatNumber(bar.high) }),
    ),
    h('span', { text: `Contribution ${formatNumber(bar.score)}` }),
    h('span', { text: `Frequency ${formatPercent(bar.freq)}` }),
    h('span', { text: `Mean target ${formatNumber(bar.mean)}` }),
  );
}
