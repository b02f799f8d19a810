/**
 * The bench's numeric upload: FEATURES numeric columns with three decimals and a two-class label (a noisy threshold
 * of the first two, so boosting stops early as on real data), deterministic.
 */
export const FEATURES = 12;

export function numericCsv(rows: number): Buffer {
  const parts: string[] = [`${Array.from({ length: FEATURES }, (_, j) => `f${j}`).join(',')},label\n`];
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < rows; i++) {
    const values = Array.from({ length: FEATURES }, () => (random() * 100).toFixed(3));
    parts.push(`${values.join(',')},${Number(values[0]) + Number(values[1]) + (random() - 0.5) * 60 > 100 ? 1 : 0}\n`);
  }
  return Buffer.from(parts.join(''));
}
