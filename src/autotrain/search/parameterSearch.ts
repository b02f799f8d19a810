import {
  evaluateClassifier,
  evaluateModel,
  evaluateMulticlassModel,
  fitModel,
  fitMulticlass,
  isMulticlassTarget,
  mulberry32,
  predict,
  trainTestSplit,
  type DataFrame,
  type ModelType,
  type TransparentModel,
} from '../../engine';

/** Training parameters of the boosted method, by their wire names (`TrainRequest` fields). */
export type SearchParams = Record<string, number>;

export interface SearchOptions {
  target: string;
  modelType: ModelType;
  /** Seeds the validation splits and the trial sampler (default 42). */
  seed?: number;
  /** Parameter sets tried besides the defaults (default 8). */
  trials?: number;
  /** Share of the rows held out to score the trials (default 0.2). */
  validationSize?: number;
  dropColumns?: string[];
  features?: string[];
  signal?: AbortSignal;
  /** Called after the defaults' fit and after every trial: `done` of `total` fits. */
  onProgress?: (done: number, total: number) => void;
}

export interface SearchTrial {
  params: SearchParams;
  /** Validation score (ROC AUC for classifiers, R² for regressors; higher is better); null when undefined. */
  score: number | null;
}

export interface SearchResult {
  /** The parameters to train with: the best trial's when it beat the defaults on both validation splits, else {}. */
  params: SearchParams;
  metric: 'roc_auc' | 'r2';
  validationScore: number | null;
  defaultScore: number | null;
  improved: boolean;
  trials: SearchTrial[];
}

const DEFAULT_TRIALS = 8;
const DEFAULT_VALIDATION = 0.2;
/** The search's size: fits besides the defaults' (two more when the best trial is checked on a second split) and the held-out share. */
export const SEARCH_SIZE = { trials: DEFAULT_TRIALS, validationSize: DEFAULT_VALIDATION } as const;
/** A trial must beat the defaults by this much on validation; smaller gains are noise on small data. */
const MIN_GAIN = 0.002;

/** The few parameters that change what the boosted method learns. */
const SPACE: Record<string, number[]> = {
  max_leaves: [2, 3, 4],
  min_samples_leaf: [3, 10, 25, 50],
  max_bins: [32, 64, 128, 256],
  smoothing: [0, 1, 3],
  learning_rate: [0.05, 0.1, 0.2],
  interactions: [0, 5, 10, 20],
};

function sampleTrials(count: number, seed: number): SearchParams[] {
  const random = mulberry32(seed);
  const seen = new Set<string>();
  const trials: SearchParams[] = [];
  for (let attempt = 0; trials.length < count && attempt < count * 20; attempt++) {
    const trial = Object.fromEntries(Object.entries(SPACE).map(([name, values]) => [name, values[Math.floor(random() * values.length)]]));
    const key = JSON.stringify(trial);
    if (seen.has(key)) continue;
    seen.add(key);
    trials.push(trial);
  }
  return trials;
}

/** Validation score, higher is better: ROC AUC of the additive scores (classifier) or R² (regressor). */
function score(model: TransparentModel, validation: DataFrame): number | null {
  if (model.modelType === 'regressor') {
    const r2 = (evaluateModel(model, validation) as { r2: number | null }).r2;
    return r2 === null || !Number.isFinite(r2) ? null : r2;
  }
  const [negative, positive] = (model.targetLabels ?? ['0', '1']).map(String);
  const scores = predict(model, validation).scores;
  const y: number[] = [];
  const s: number[] = [];
  for (let r = 0; r < validation.nRows; r++) {
    const label = validation.value(r, model.target);
    if (label === null) continue;
    const text = String(label);
    if (text !== negative && text !== positive) continue;
    y.push(text === positive ? 1 : 0);
    s.push(scores[r]);
  }
  if (!y.includes(0) || !y.includes(1)) return null;
  const auc = evaluateClassifier(y, s).roc_auc;
  return auc === null || !Number.isFinite(auc) ? null : auc;
}

/** Lets HTTP requests (status polls, cancellation) run between trials. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('the parameter search was cancelled');
}

function strataOf(frame: DataFrame, target: string, modelType: ModelType): Int32Array | undefined {
  if (modelType !== 'classifier') return undefined;
  const codes = new Map<string, number>();
  return Int32Array.from({ length: frame.nRows }, (_, r) => {
    const key = String(frame.value(r, target));
    if (!codes.has(key)) codes.set(key, codes.size);
    return codes.get(key) as number;
  });
}

/**
 * A small seeded search of the boosted method's parameters: every trial is a real fit on a training split, scored
 * on the held-out validation split. The defaults are kept unless the best trial beats them by a clear margin there
 * and again on a second, differently seeded split, so noise on small data does not replace good defaults. Pass
 * only training rows; the caller's test rows must stay unseen.
 */
export async function searchParameters(frame: DataFrame, options: SearchOptions): Promise<SearchResult> {
  const seed = options.seed ?? 42;
  const candidates = sampleTrials(options.trials ?? DEFAULT_TRIALS, seed);
  const strata = strataOf(frame, options.target, options.modelType);
  const multiclass = options.modelType === 'classifier' && isMulticlassTarget(frame, options.target);
  const validationSize = options.validationSize ?? DEFAULT_VALIDATION;
  const total = candidates.length + 1 + (candidates.length ? 2 : 0);
  let done = 0;
  const evaluate = async (params: SearchParams, splitSeed: number): Promise<number | null> => {
    await yieldToEventLoop();
    throwIfAborted(options.signal);
    const split = trainTestSplit(frame.nRows, validationSize, splitSeed, strata);
    const { smoothing, ...boost } = params;
    const fitOptions = {
      target: options.target,
      modelType: options.modelType,
      features: options.features,
      dropColumns: options.dropColumns,
      boost,
      boostFeature: smoothing === undefined ? undefined : { smoothing },
      seed: splitSeed,
    };
    // A multiclass target is scored by the macro one-vs-rest AUC of the class models.
    const result = multiclass
      ? evaluateMulticlassModel(fitMulticlass(frame.take(split.train), fitOptions), frame.take(split.test)).roc_auc
      : score(fitModel(frame.take(split.train), fitOptions), frame.take(split.test));
    options.onProgress?.(++done, total);
    return result;
  };
  const defaultScore = await evaluate({}, seed);
  const trials: SearchTrial[] = [];
  let best: SearchTrial | null = null;
  for (const params of candidates) {
    const trial = { params, score: await evaluate(params, seed) };
    trials.push(trial);
    if (trial.score !== null && (best?.score == null || trial.score > best.score)) best = trial;
  }
  const beats = (a: number | null, b: number | null) => a !== null && (b === null || a > b + MIN_GAIN);
  let improved = best !== null && beats(best.score, defaultScore);
  if (improved && best) {
    const again = seed + 1;
    const bestAgain = await evaluate(best.params, again);
    improved = beats(bestAgain, await evaluate({}, again));
  }
  if (done < total) options.onProgress?.(total, total);
  return {
    params: improved && best ? best.params : {},
    metric: options.modelType === 'classifier' ? 'roc_auc' : 'r2',
    validationScore: improved && best ? best.score : defaultScore,
    defaultScore,
    improved,
    trials,
  };
}
