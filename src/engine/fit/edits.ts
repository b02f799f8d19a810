import { withoutPairs } from '../model/pairs';
import { centre } from '../boost/assemble';
import { EngineError } from '../base/errors';
import { EDIT_OPS, MISSING_BIN, type StepEdit } from '../model/edits';
import { modelFeatures } from '../model/predict';
import type { FeatureModel, PartitionModel, TransparentModel } from '../model/types';
import { DEFAULT_BOOST_FEATURE_PARAMS } from '../params/boosted';
import type { FitMethod } from '../params/table';
import { applyStepEdit, type LeafRange } from './stepOps';

/** One partition of one class model whose features the edits named. */
export interface EditedPart {
  partition: string;
  /** The class of a multiclass model's class model; null for a binary or regression model. */
  class: string | null;
  /** The features the edits named here, in the order first named; a removed one is no longer in `part.features`. */
  features: string[];
  /** The partition as edited. */
  part: PartitionModel;
}

export interface EditsResult {
  /** The edited models, in the order given. */
  models: TransparentModel[];
  /** Every part an edit named, in partition order, then class order. */
  parts: EditedPart[];
}

/** A partition of one class model while the edits apply: its features' working steps and what was removed. */
interface Work {
  classIndex: number;
  part: PartitionModel;
  steps: Map<string, Float64Array>;
  /** The index of the edit that removed a feature. */
  removedBy: Map<string, number>;
  named: Set<string>;
}

interface Target {
  work: Work;
  feature: FeatureModel;
}

const NEEDS_VALUE = new Set<string>(['shift', 'set']);
const TAKES_MISSING_BIN = new Set<string>(['shift', 'set', 'reset']);

/**
 * Applies hand edits, in order, to the steps of a model's partitions, or of a multiclass model's class models
 * (`classes` names them, in order; null for a binary or regression model). The inputs are not modified.
 *
 * An edit changes the partition it names (else every partition) of the class model it names (else every class);
 * with a range of `bins`, the feature must have the same bins in each. `reset` returns to the steps the models had
 * when given. A `boosted` feature whose steps changed is re-centred on its training counts (the mean moves into the
 * base value, as a refit does) and its steps become its own: its smoothing and monotone constraint are then 0. An
 * `xplainable` feature keeps its base value (its steps are not centred) and is marked as edited, which later refits
 * keep. A bad edit throws an EngineError whose message names `edits[i].field` and whose field is its wire path,
 * `edits.i.field`.
 */
export function applyEdits(models: readonly TransparentModel[], classes: readonly string[] | null, edits: readonly StepEdit[]): EditsResult {
  const method = models[0].method;
  const keys = [...models[0].partitions.keys()];
  const where: Where = (work) => `${keys.length > 1 ? ` in partition ${work.part.key}` : ''}${classes ? ` for class ${classes[work.classIndex]}` : ''}`;
  const works = new Map<string, Work>();
  const workOf = (classIndex: number, key: string, part: PartitionModel): Work => {
    const id = `${classIndex}\u0000${key}`;
    let work = works.get(id);
    if (!work) {
      work = { classIndex, part, steps: new Map(), removedBy: new Map(), named: new Set() };
      works.set(id, work);
    }
    return work;
  };
  edits.forEach((edit, i) => {
    const fail = failure(i);
    checkFields(edit, method, fail);
    const targets: Target[] = [];
    for (const classIndex of classIndexes(edit, models.length, classes, fail)) {
      for (const key of edit.partition === undefined ? keys : [knownPartition(edit.partition, keys, fail)]) {
        const part = models[classIndex].partitions.get(key);
        const feature = part?.features.find((f) => f.name === edit.feature);
        if (!part || !feature) continue;
        const work = workOf(classIndex, key, part);
        const removedBy = work.removedBy.get(edit.feature);
        if (removedBy !== undefined) fail('feature', `${edit.feature} was removed by edits[${removedBy}]${where(work)}`);
        targets.push({ work, feature });
      }
    }
    if (targets.length === 0) fail('feature', `there is no feature ${edit.feature}${scope(edit)}; the model's features are: ${modelFeatures(models[0]).join(', ')}`);
    if (Array.isArray(edit.bins)) checkSameBins(edit, targets, where, fail);
    for (const { work, feature } of targets) {
      work.named.add(feature.name);
      if (edit.op === 'remove') work.removedBy.set(feature.name, i);
      else applyStepEdit(edit, stepsOf(work, feature), feature.leaves.score, feature.leaves.count, leafRange(edit, feature, fail, where(work)));
    }
  });
  const edited = models.map((model, classIndex) => {
    const changed = [...works.values()].filter((work) => work.classIndex === classIndex);
    if (changed.length === 0) return model;
    const partitions = new Map(model.partitions);
    for (const work of changed) partitions.set(work.part.key, finishPart(work, method));
    return { ...model, partitions };
  });
  const parts = [...works.values()]
    .filter((work) => work.named.size > 0)
    .sort((a, b) => keys.indexOf(a.part.key) - keys.indexOf(b.part.key) || a.classIndex - b.classIndex)
    .map((work) => ({
      partition: work.part.key,
      class: classes ? classes[work.classIndex] : null,
      features: [...work.named],
      part: edited[work.classIndex].partitions.get(work.part.key) as PartitionModel,
    }));
  return { models: edited, parts };
}

/** `applyEdits` on a binary or regression model. */
export function editModel(model: TransparentModel, edits: readonly StepEdit[]): { model: TransparentModel; parts: EditedPart[] } {
  const { models, parts } = applyEdits([model], null, edits);
  return { model: models[0], parts };
}

type Fail = (field: string, problem: string) => never;
/** Where a part is in the model, as errors name it (nothing for an unpartitioned binary or regression model). */
type Where = (work: Work) => string;

function failure(i: number): Fail {
  return (field, problem) => {
    throw new EngineError(`edits[${i}].${field}: ${problem}`, `edits.${i}.${field}`);
  };
}

/** The fields each op needs and takes, before any feature is looked at. */
function checkFields(edit: StepEdit, method: FitMethod, fail: Fail): void {
  const { op, bins, value, direction } = edit;
  if (!(EDIT_OPS as readonly string[]).includes(op)) fail('op', `${JSON.stringify(op)} is no edit; the edits are ${EDIT_OPS.join(', ')}`);
  if (typeof edit.feature !== 'string') fail('feature', 'must be the name of a feature');
  if (NEEDS_VALUE.has(op)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      fail('value', op === 'shift' ? 'shift needs a value, the number added to the steps' : 'set needs a value, the number the steps become');
    }
  } else if (value !== undefined) fail('value', `${op} takes no value; leave value out`);
  if (op === 'monotone') {
    if (direction !== 1 && direction !== -1) fail('direction', 'monotone needs direction 1 (steps never decrease) or -1 (never increase)');
  } else if (direction !== undefined) fail('direction', `${op} takes no direction; leave direction out`);
  if (op === 'remove') {
    if (bins !== undefined) fail('bins', 'remove takes out the whole feature; leave bins out');
    if (method !== 'boosted') {
      fail('op', 'removing a feature needs a model fitted with the boosted method, whose steps are centred; train a new version without the feature');
    }
  } else if (bins === MISSING_BIN) {
    if (!TAKES_MISSING_BIN.has(op)) fail('bins', `${op} works across neighbouring bins, and the missing-value bin has none; give [first, last]`);
  } else if (bins !== undefined) {
    const [first, last] = Array.isArray(bins) && bins.length === 2 ? bins : [NaN, NaN];
    if (!Number.isInteger(first) || !Number.isInteger(last) || first < 0) fail('bins', `must be [first, last], two bin indexes from 0, or "${MISSING_BIN}"`);
    if (first > last) fail('bins', `the first bin ${first} comes after the last bin ${last}`);
  }
}

function classIndexes(edit: StepEdit, count: number, classes: readonly string[] | null, fail: Fail): number[] {
  if (edit.class === undefined) return Array.from({ length: count }, (_, k) => k);
  if (!classes) fail('class', `the model is not multiclass, so it has no class ${edit.class}; leave class out`);
  const k = classes.indexOf(edit.class);
  if (k < 0) fail('class', `the model has no class ${edit.class}; its classes are: ${classes.join(', ')}`);
  return [k];
}

function knownPartition(partition: string, keys: string[], fail: Fail): string {
  if (!keys.includes(partition)) fail('partition', `the model has no partition ${partition}; its partitions are: ${keys.join(', ')}`);
  return partition;
}

const scope = (edit: StepEdit) =>
  `${edit.partition === undefined ? '' : ` in partition ${edit.partition}`}${edit.class === undefined ? '' : ` for class ${edit.class}`}`;

/** Bins given as a range must mean the same bins in every part the edit changes. */
function checkSameBins(edit: StepEdit, targets: Target[], where: Where, fail: Fail): void {
  const [first, ...rest] = targets;
  for (const other of rest) {
    if (sameBins(first.feature, other.feature)) continue;
    const field = edit.partition === undefined && other.work.part.key !== first.work.part.key ? 'partition' : 'class';
    fail(
      field,
      `${edit.feature} has other bins${where(other.work)} than${where(first.work)}, so bins ${JSON.stringify(edit.bins)} would mean other values; name the ${field} whose steps this edit changes`,
    );
  }
}

function sameBins(a: FeatureModel, b: FeatureModel): boolean {
  if (a.type !== b.type || a.leaves.score.length !== b.leaves.score.length) return false;
  if (a.type === 'categorical') return (a.categorical?.categories ?? []).every((c, i) => c === b.categorical?.categories[i]);
  return a.leaves.upper.every((u, i) => Object.is(u, b.leaves.upper[i]));
}

function leafRange(edit: StepEdit, feature: FeatureModel, fail: Fail, at: string): LeafRange {
  const m = feature.leaves.score.length - 1;
  if (edit.bins === MISSING_BIN) return [m, m + 1];
  if (edit.bins === undefined) return [0, edit.op === 'reset' ? m + 1 : m];
  const [first, last] = edit.bins;
  if (last >= m) {
    const has = m === 0 ? 'has no bins but the missing-value bin' : `has ${m} bins besides the missing-value bin, 0 to ${m - 1},`;
    fail('bins', `${feature.name}${at} ${has} so [${first}, ${last}] is out of range`);
  }
  return [first, last + 1];
}

function stepsOf(work: Work, feature: FeatureModel): Float64Array {
  let steps = work.steps.get(feature.name);
  if (!steps) {
    steps = feature.leaves.score.slice();
    work.steps.set(feature.name, steps);
  }
  return steps;
}

function sameSteps(a: Float64Array, b: Float64Array): boolean {
  return a.every((v, i) => Object.is(v, b[i]));
}

/** The partition with its edited features in place, re-centred (`boosted`), and without the removed ones and their pairs. */
function finishPart(work: Work, method: FitMethod): PartitionModel {
  const { part } = work;
  let baseValue = part.baseValue;
  const features: FeatureModel[] = [];
  for (const f of part.features) {
    if (work.removedBy.has(f.name)) continue;
    const steps = work.steps.get(f.name);
    if (!steps || sameSteps(steps, f.leaves.score)) {
      features.push(f);
    } else if (method === 'boosted') {
      baseValue += centre(steps, f.leaves.count);
      const raw = steps.slice();
      const params = { ...(f.boost?.params ?? DEFAULT_BOOST_FEATURE_PARAMS), smoothing: 0, monotone: 0 as const };
      features.push({ ...f, leaves: { ...f.leaves, score: steps, raw }, boost: { params, steps: raw } });
    } else {
      features.push({ ...f, leaves: { ...f.leaves, score: steps }, edited: true });
    }
  }
  return withoutPairs({ ...part, baseValue, features }, new Set(work.removedBy.keys()), new Set());
}
