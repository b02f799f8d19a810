import type { PreviewPart } from '../../contract';
import { editModel, editMulticlass, featureBins, type EditedPart, type StepEdit } from '../../engine';
import { finiteJson } from '../base/json';
import type { StoredFittedModel } from './modelJson';

/** A stored model with hand edits applied (see the engine's `applyEdits`). */
export function editFitted(model: StoredFittedModel, edits: readonly StepEdit[]): { model: StoredFittedModel; parts: EditedPart[] } {
  return model.modelType === 'multiclass' ? editMulticlass(model, edits) : editModel(model, edits);
}

/** The edited parts as the preview answers them: each named feature's bins as the profile lists them (none when removed). */
export function previewParts(parts: readonly EditedPart[]): PreviewPart[] {
  return parts.map(({ partition, class: cls, part, features }) => ({
    partition,
    ...(cls === null ? {} : { class: cls }),
    base_value: part.baseValue,
    features: Object.fromEntries(
      features.map((name) => {
        const feature = part.features.find((f) => f.name === name);
        return [name, feature ? (finiteJson(featureBins(feature)) as PreviewPart['features'][string]) : []];
      }),
    ),
  }));
}
