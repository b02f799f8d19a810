import {
  DEFAULT_PARAMS,
  evaluateClassifier,
  evaluateModel,
  fitModel,
  mulberry32,
  predict,
  refit,
  trainTestSplit,
  type DataFrame,
  type ModelParams,
  type ModelType,
  type TransparentModel,
} from '../../engine';

export interface SearchOptions {
  target: string;
  modelType: ModelType;
  /** Seeds both the validation split and the trial sampler (default 42). */
  seed?: number;
  /** Parameter sets tried besides the defaults (default 24). */
  trials?: number;
  /** Share of the rows held out to score the trials (default 0.2). */
  validationSize?: number;
  dropColumns?: string[];
  features?: string[];
  /** Parameters the search starts from (default: the engine's defaults). */
  baseParams?: Partial<ModelParams>;
  signal?: AbortSignal;
  /** Called after the baseline fit and after every trial: `done` of `total` evaluations. */
  onProgress?: (done: number, total: number) => void;
}

export interface SearchTrial {
  params: Partial<ModelParams>;
  /** Validation score (ROC AUC for classifiers, R² for regressors; higher is better); null when undefined. */
  score: number | null;
}

export interface SearchResult {
  /** The parameters to train with: the best trial's when it beat the defaults on validation, else the defaults. */
  params: ModelParams;
  metric: 'roc_auc' | 'r2';
  validationScore: number | null;
  defaultScore: number | null;
  improved: boolean;
  trials: SearchTrial[];
}

const DEFAULT_TRIALS = 24;
const DEFAULT_VALIDATION = 0.2;
const MIN_GAIN = 1e-9;

const TREE_SPACE = {
  max_depth: [3, 4, 5, 6, 8, 10, 12],
  min_leaf_size: [0.0001, 0.001, 0.005, 0.01, 0.02, 0.05],
  min_info_gain: [0.0001, 0.001, 0.005, 0.01, 0.02],
};
const CLASSIFIER_SPACE = {
  weight: [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2],
  power_degree: [1, 3],
  sigmoid_exponent: [0, 1],
};
const REGRESSOR_SPACE = { tail_sensitivity: [1, 1.25, 1.5, 2, 2.5, 3] };

function sampleTrials(modelType: ModelType, count: number, seed: number): Partial<ModelParams>[] {
  const space: Record<string, number[]> = { ...TREE_SPACE, ...(modelType === 'classifier' ? CLASSIFIER_SPACE : REGRESSOR_SPACE) };
  const random = mulberry32(seed);
  const seen = new Set<string>();
  const trials: Partial<ModelParams>[] = [];
  for (let attempt = 0; trials.length < count && attempt < count * 20; attempt++) {
    const trial = Object.fromEntries(Object.entries(space).map(([name, values]) => [name, values[Math.floor(random() * values.length)]]));
    const key = JSON.stringify(trial);
    if (seen.has(key)) continue;
    seen.add(key);
    trials.push(trial as Partial<ModelParams>);
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
 * A small seeded search of the training parameters: one fit on a training split, then fast refits (no pass over
 * the data) of sampled parameter sets, each scored on the held-out validation split, yielding to the event loop
 * between trials. The defaults are kept unless a
 * trial beats them there. Pass only training rows; the caller's test rows must stay unseen.
 */
export async function searchParameters(frame: DataFrame, options: SearchOptions): Promise<SearchResult> {
  const seed = options.seed ?? 42;
  const count = options.trials ?? DEFAULT_TRIALS;
  const defaults: ModelParams = { ...DEFAULT_PARAMS, ...options.baseParams };
  const split = trainTestSplit(frame.nRows, options.validationSize ?? DEFAULT_VALIDATION, seed, strataOf(frame, options.target, options.modelType));
  const train = frame.take(split.train);
  const validation = frame.take(split.test);
  throwIfAborted(options.signal);
  const base = fitModel(train, {
    target: options.target,
    modelType: options.modelType,
    features: options.features,
    dropColumns: options.dropColumns,
    params: defaults,
  });
  const defaultScore = score(base, validation);
  const candidates = sampleTrials(options.modelType, count, seed);
  const total = candidates.length + 1;
  options.onProgress?.(1, total);
  const trials: SearchTrial[] = [];
  let best: SearchTrial | null = null;
  for (const params of candidates) {
    await yieldToEventLoop();
    throwIfAborted(options.signal);
    const trial = { params, score: score(refit(base, { params }).model, validation) };
    trials.push(trial);
    if (trial.score !== null && (best?.score == null || trial.score > best.score)) best = trial;
    options.onProgress?.(trials.length + 1, total);
  }
  const improved = best !== null && best.score !== null && (defaultScore === null || best.score > defaultScore + MIN_GAIN);
  return {
    params: improved && best ? { ...defaults, ...best.params } : defaults,
    metric: options.modelType === 'classifier' ? 'roc_auc' : 'r2',
    validationScore: improved && best ? best.score : defaultScore,
    defaultScore,
    improved,
    trials,
  };
}
