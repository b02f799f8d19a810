/** Number formatting shared by every panel (pure; used by webview code and tests). */

/**
 * A number with `decimals` decimals at most, trailing zeros dropped and thousands grouped ("-1,234.5"), as en-US
 * `toLocaleString` writes it. Written out because a page's first Intl number format costs about 20 ms, and one per
 * call made a panel's hundreds of numbers take tens of milliseconds.
 */
function grouped(value: number, decimals: number, keepZeros = false): string {
  const [whole, fraction = ''] = Math.abs(value).toFixed(decimals).split('.');
  const digits = keepZeros ? fraction : fraction.replace(/0+$/, '');
  const sign = value < 0 && (/[1-9]/.test(whole) || digits !== '') ? '-' : '';
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${digits ? `.${digits}` : ''}`;
}

/** A number with at most `digits` significant decimals; "—" for null/undefined/non-finite. */
export function formatNumber(value: number | null | undefined, digits = 4): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value !== 0 && Math.abs(value) < 10 ** -digits) return value.toExponential(2);
  return grouped(value, digits);
}

/** A number rounded to `digits` significant digits, for axis labels ("−816", "0.0523", "1,230"). */
export function formatSignificant(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const rounded = Number(value.toPrecision(digits));
  const decimals = rounded === 0 ? 0 : digits - 1 - Math.floor(Math.log10(Math.abs(rounded)));
  return grouped(rounded, Math.min(20, Math.max(0, decimals)));
}

/**
 * A numeric axis tick as Chart.js's own formatter writes it (decimals from the step between ticks, exponent
 * form past 1e15 or under 1e-4), without its Intl formatter (see `grouped`).
 */
export function formatTick(value: number, ticks: readonly { value: number }[]): string {
  if (value === 0) return '0';
  let step = value;
  if (ticks.length > 1) {
    const largest = Math.max(Math.abs(ticks[0].value), Math.abs(ticks[ticks.length - 1].value));
    if (largest < 1e-4 || largest > 1e15) return value.toExponential(2);
    step = ticks.length > 3 ? ticks[2].value - ticks[1].value : ticks[1].value - ticks[0].value;
    if (Math.abs(step) >= 1 && value !== Math.floor(value)) step = value - Math.floor(value);
  }
  const logStep = Math.log10(Math.abs(step));
  const decimals = Number.isNaN(logStep) ? 1 : Math.max(Math.min(-Math.floor(logStep), 20), 0);
  return grouped(value, decimals, true);
}

/** A 0–1 fraction as a percentage ("12.3%"); "—" for null/undefined/non-finite. */
export function formatPercent(fraction: number | null | undefined, digits = 1): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return '—';
  return `${(fraction * 100).toFixed(digits)}%`;
}

/** A percentage axis label with a decimal when the axis spans less than 10%, so ticks stay distinct. */
export function percentTick(value: number, ticks: readonly { value: number }[]): string {
  const span = Math.max(...ticks.map((t) => Math.abs(t.value)), 0);
  return formatPercent(value, span < 0.1 ? 1 : 0);
}

/** How the whole-data partition (`__dataset__`) reads everywhere: tree, panel titles and partition pickers. */
export const WHOLE_DATA_LABEL = 'All data';

/** A human name for the whole-data partition and partition values. */
export function partitionLabel(partition: string): string {
  return partition === '__dataset__' ? WHOLE_DATA_LABEL : partition;
}
