import { DataFrame, inferColumn, mulberry32, numberColumn } from '../../../src/engine';

/** Synthetic insurance-like tasks with a known truth, for the objectives' tests and the accuracy bench. */
export type ObjectiveTask = 'frequency' | 'severity' | 'premium' | 'quantile';

const REGIONS = ['North', 'South', 'East', 'West', 'Centre', 'Islands'];
const REGION_EFFECT = [0, 0.3, -0.2, 0.15, 0.45, -0.4];

function normal(random: () => number): number {
  const u = Math.max(1e-300, random());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function poisson(random: () => number, mean: number): number {
  let k = 0;
  let p = Math.exp(-mean);
  let s = p;
  const u = random();
  while (u > s && k < 1000) {
    k++;
    p *= mean / k;
    s += p;
  }
  return k;
}

/** Gamma(shape, scale) by Marsaglia and Tsang. */
function gamma(random: () => number, shape: number, scale: number): number {
  if (shape < 1) return gamma(random, shape + 1, scale) * Math.pow(random(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(random);
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = random();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v * scale;
  }
}

/** The log of a policy's expected claim rate from its rating factors (curved in age, stepped in power). */
function logRate(age: number, power: number, region: number, bonus: number): number {
  return -2.3 + 0.9 * Math.exp(-(age - 18) / 8) + 0.004 * (age - 45) + (power > 9 ? 0.35 : 0) + REGION_EFFECT[region] + 0.006 * (bonus - 100);
}

/**
 * `n` rows of a task: rating factors age, power, region (categorical), bonus and a noise column; `exposure` (years
 * at risk, frequency and premium) and `weight` (1 to 3, every task); the target `y`: claim counts (Poisson in
 * exposure × rate), claim sizes (Gamma, shape 2), the year's total claims (compound Poisson–Gamma: Tweedie), or a
 * heteroscedastic value whose spread grows with power (quantile).
 */
export function objectiveFrame(task: ObjectiveTask, n: number, seed: number): DataFrame {
  const random = mulberry32(seed);
  const cols = { age: new Float64Array(n), power: new Float64Array(n), bonus: new Float64Array(n), noise: new Float64Array(n), exposure: new Float64Array(n), weight: new Float64Array(n), y: new Float64Array(n) };
  const region: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const age = 18 + Math.floor(random() * 62);
    const power = 4 + Math.floor(random() * 12);
    const r = Math.floor(random() * REGIONS.length);
    const bonus = 50 + Math.floor(random() * 120);
    const exposure = task === 'frequency' || task === 'premium' ? Math.round((0.05 + 0.95 * random()) * 1000) / 1000 : 1;
    const lr = logRate(age, power, r, bonus);
    let y: number;
    if (task === 'frequency') y = poisson(random, exposure * Math.exp(lr));
    else if (task === 'severity') y = gamma(random, 2, Math.exp(7 + 0.5 * (lr + 2.3)) / 2);
    else if (task === 'premium') {
      const claims = poisson(random, exposure * Math.exp(lr + 0.5));
      y = 0;
      for (let k = 0; k < claims; k++) y += gamma(random, 2, 500);
    } else y = 10 + 0.1 * age + REGION_EFFECT[r] * 5 + (0.5 + (power - 4) * 0.4) * normal(random);
    cols.age[i] = age;
    cols.power[i] = power;
    cols.bonus[i] = bonus;
    cols.noise[i] = random();
    cols.exposure[i] = exposure;
    cols.weight[i] = 1 + Math.floor(random() * 3);
    cols.y[i] = Math.round(y * 1000) / 1000;
    region[i] = REGIONS[r];
  }
  return new DataFrame([
    numberColumn('age', cols.age),
    numberColumn('power', cols.power),
    inferColumn('region', region),
    numberColumn('bonus', cols.bonus),
    numberColumn('noise', cols.noise),
    numberColumn('exposure', cols.exposure),
    numberColumn('weight', cols.weight),
    numberColumn('y', cols.y),
  ]);
}

/** A frame as CSV text (a header, then one line per row; missing values empty), as an upload sends it. */
export function frameCsv(frame: DataFrame, edit: (line: string[], row: number) => string[] = (line) => line): string {
  const lines = [frame.names.join(',')];
  for (let r = 0; r < frame.nRows; r++) lines.push(edit(frame.names.map((c) => String(frame.value(r, c) ?? '')), r).join(','));
  return lines.join('\n');
}
