import { applyEdits, type EditedPart } from '../fit/edits';
import type { StepEdit } from '../model/edits';
import type { MulticlassModel } from './model';

/** `applyEdits` on the class models of a multiclass model: an edit's `class` names the one it changes. */
export function editMulticlass(model: MulticlassModel, edits: readonly StepEdit[]): { model: MulticlassModel; parts: EditedPart[] } {
  const { models, parts } = applyEdits(model.classModels, model.classes, edits);
  return { model: { ...model, classModels: models }, parts };
}
