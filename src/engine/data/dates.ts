const ISO_RE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const MONTH_FIRST_RE = /^([A-Za-z]{3})[A-Za-z]*\.? (\d{1,2}),? (\d{4})$/;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Epoch milliseconds (UTC) of a date in one of the formats the sample data uses: `YYYY-MM-DD[ HH:MM[:SS[.fff]]][zone]`
 * (also with `/`) and `Mon DD YYYY`; NaN for anything else. Times without a zone are taken as UTC so results do not
 * depend on the machine's time zone.
 */
export function parseDate(text: string): number {
  const s = text.trim();
  const iso = ISO_RE.exec(s);
  if (iso) {
    const [, y, mo, d, h, mi, sec, ms, zone] = iso;
    const month = Number(mo);
    const day = Number(d);
    if (month < 1 || month > 12 || day < 1 || day > 31) return NaN;
    let t = Date.UTC(Number(y), month - 1, day, Number(h ?? 0), Number(mi ?? 0), Number(sec ?? 0), Number((ms ?? '0').padEnd(3, '0')));
    if (zone && zone !== 'Z') {
      const sign = zone[0] === '-' ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
    }
    return t;
  }
  const mf = MONTH_FIRST_RE.exec(s);
  if (mf) {
    const month = MONTHS.indexOf(mf[1].toLowerCase());
    const day = Number(mf[2]);
    if (month < 0 || day < 1 || day > 31) return NaN;
    return Date.UTC(Number(mf[3]), month, day);
  }
  return NaN;
}
