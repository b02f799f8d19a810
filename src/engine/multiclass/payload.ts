/**
 * The model JSON of a multiclass model (one-vs-rest): every class model's partition payloads, each tagged with the
 * class it scores. Apart from the engine's model so that readers (exports) need only the payload reader.
 */
import { compareText, type MulticlassModel } from './model';
import { fail, fromPayloads, toPayloads, type FromPayloadOptions, type PartitionPayload } from '../model/payload';
import type { TransparentModel } from '../model/types';

/** A class model's partition payload: the binary payload plus the class it scores (§7 extension). */
export type ClassPartitionPayload = PartitionPayload & { class: string; classes: string[] };

/**
 * The model JSON of a multiclass model: the partition payloads of every class model, in class order, each tagged
 * with `class` (the class its model scores) and `classes` (all classes). A list without `class` is a binary model.
 */
export function multiclassToPayloads(model: MulticlassModel): ClassPartitionPayload[] {
  return model.classModels.flatMap((m, k) => toPayloads(m).map((p) => ({ ...p, class: model.classes[k], classes: model.classes })));
}

/** Whether a model JSON's partition list is a multiclass model's (its payloads carry `class`). */
export function isMulticlassPayload(payloads: readonly unknown[]): boolean {
  const first = payloads[0];
  return typeof first === 'object' && first !== null && typeof (first as { class?: unknown }).class === 'string';
}

/**
 * Reads a multiclass model JSON: every payload names its `class`, every class has the same partitions, and a payload's
 * `classes`, when given, lists exactly the classes of the list. Errors name the payload (`partitions[i]`) and field.
 */
export function multiclassFromPayloads(payloads: readonly unknown[], options: FromPayloadOptions = {}): MulticlassModel {
  const groups = new Map<string, { payloads: unknown[]; indexes: number[] }>();
  payloads.forEach((raw, i) => {
    const cls = typeof raw === 'object' && raw !== null ? (raw as { class?: unknown }).class : undefined;
    if (typeof cls !== 'string') fail(`partitions[${i}].class`, `must be the class its model scores (a string), got ${JSON.stringify(cls ?? null)}`);
    const group = groups.get(cls) ?? { payloads: [], indexes: [] };
    group.payloads.push(raw);
    group.indexes.push(i);
    groups.set(cls, group);
  });
  const classes = [...groups.keys()].sort(compareText);
  if (classes.length < 3) fail('partitions', `name ${classes.length} class(es) (${classes.join(', ')}); a multiclass model has 3 or more, a model of 2 is binary_classification`);
  payloads.forEach((raw, i) => {
    const listed = (raw as { classes?: unknown }).classes;
    if (listed === undefined) return;
    const sorted = Array.isArray(listed) ? listed.map(String).sort(compareText) : null;
    if (!sorted || sorted.join('\u0000') !== classes.join('\u0000')) {
      fail(`partitions[${i}].classes`, `must list the classes of the payloads (${classes.join(', ')}), got ${JSON.stringify(listed)}`);
    }
  });
  const classModels = classes.map((cls) => {
    const group = groups.get(cls) as { payloads: unknown[]; indexes: number[] };
    return fromPayloads(group.payloads, 'classifier', { ...options, indexes: group.indexes });
  });
  const keys = (m: TransparentModel): string => [...m.partitions.keys()].sort(compareText).join(', ');
  classModels.forEach((m, k) => {
    if (keys(m) !== keys(classModels[0])) {
      const at = (groups.get(classes[k]) as { indexes: number[] }).indexes[0];
      fail(`partitions[${at}].partition`, `class ${classes[k]} has partitions ${keys(m)}, but class ${classes[0]} has ${keys(classModels[0])}; every class needs the same partitions`);
    }
  });
  const first = classModels[0];
  return { modelType: 'multiclass', target: first.target, partitionOn: first.partitionOn, classes, classModels };
}
