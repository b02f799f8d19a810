import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mulberry32 } from '../../../src/engine';
import { parseDate } from '../../../src/engine/data/dates';
import { pythonRuntime } from '../../../src/modelExport/python';

/** Texts around every rule of the service's date reader: forms, ranges that carry over, zones, spaces, non-dates. */
function dateTexts(): string[] {
  const random = mulberry32(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const digits = (n: number, width: number) => String(n).padStart(width, '0');
  const texts = [
    '1970-01-01', '1970/1/1', '2024-02-29', '2023-02-29', '2021-04-31', '2021-00-10', '2021-13-01', '2021-01-00', '2021-01-32',
    '0000-01-01', '0099-12-31', '0100-01-01', '9999-12-31', '1969-12-31 23:59:59.999', '2020-01-01T00:00:00Z', '2020-01-01 7:05',
    '2020-01-01 24:00', '2020-01-01 99:99:99', '2020-01-01T10:30:00.5+01:00', '2020-01-01T10:30:00.123456-0930', '2020-01-01+05',
    'Jan 1 2020', 'January 31, 2020', 'Sept. 9 1981', 'sep 31 2021', 'Foo 1 2020', 'Jan 0 2020', ' 2020-01-01 ', '\u00a02020-01-01\ufeff',
    '\u001c2020-01-01', '2020-01-01\n', '２０２０-01-01', '2020', '20200101', '', 'n/a', '2020-01-01 10', '2020-01-01T10:30:00.',
  ];
  for (let i = 0; i < 400; i++) {
    const sep = pick(['-', '/']);
    const date = `${digits(Math.floor(random() * 10000), 4)}${sep}${Math.floor(random() * 14)}${sep}${Math.floor(random() * 33)}`;
    const time = pick(['', ` ${Math.floor(random() * 30)}:${digits(Math.floor(random() * 70), 2)}`, `T${Math.floor(random() * 24)}:${digits(Math.floor(random() * 60), 2)}:${digits(Math.floor(random() * 62), 2)}`]);
    const fraction = time.split(':').length === 3 ? pick(['', `.${Math.floor(random() * 1e6)}`]) : '';
    const zone = pick(['', 'Z', `${pick(['+', '-'])}${digits(Math.floor(random() * 24), 2)}${pick([':', ''])}${digits(Math.floor(random() * 60), 2)}`]);
    texts.push(`${date}${time}${fraction}${zone}`);
    texts.push(`${pick(['Jan', 'feb', 'MAR', 'April', 'Sept.', 'Dec', 'Xyz'])} ${Math.floor(random() * 33)}${pick([',', ''])} ${digits(Math.floor(random() * 10000), 4)}`);
  }
  return texts;
}

describe('model export: Python reads dates as the service does', () => {
  it('gives the milliseconds the service gives for every date text, and None where the service reads no date', () => {
    const texts = dateTexts();
    const program = ['import bisect, datetime, json, math, re, sys', ...pythonRuntime(false, false), 'print(json.dumps([_date(t) for t in json.load(sys.stdin)]))'].join('\n');
    const read = JSON.parse(execFileSync('python3', ['-c', program], { input: JSON.stringify(texts), encoding: 'utf8' })) as (number | null)[];
    const expected = texts.map((t) => (Number.isNaN(parseDate(t)) ? null : parseDate(t)));
    const differences = texts.flatMap((t, i) => (read[i] === expected[i] ? [] : [`${JSON.stringify(t)}: Python ${read[i]}, service ${expected[i]}`]));
    assert.deepEqual(differences, []);
    assert.ok(expected.filter((v) => v !== null).length > 300, 'most texts are dates');
  });
});
