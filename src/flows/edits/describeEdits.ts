import type { AppliedEdit, ModelInfo, ModelProfile, ModelVersion } from '../../contract';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';
import { EDITS_FILE_FORMAT, EDITS_FILE_VERSION, type EditsFile, type FileEdit } from './editsFile';
import { binBounds, profileParts, valueBins, type ProfilePart } from './profileParts';

/**
 * A version's edits as a file: each edit as the version records it, with a range of bins also given by value (each
 * bin's bounds, or its category) as `profiles` list them. The edits index the bins of the version's parent, so its
 * profile comes first; the version's own (the same bins, but without the features an edit removed) is the fallback.
 */
export function editsFileOf(model: ModelInfo, version: ModelVersion, profiles: readonly ModelProfile[]): EditsFile {
  const parts = profiles.map(profileParts);
  return {
    format: EDITS_FILE_FORMAT,
    version: EDITS_FILE_VERSION,
    source: {
      model_id: model.model_id,
      model_name: model.model_name,
      target_name: model.target_name,
      version_id: version.version_id,
      version_number: version.version_number,
      parent_version_id: version.parent_version_id,
    },
    edits: (version.edits ?? []).map((edit, i) => describeEdit(edit, parts, () => `v${version.version_number} edits[${i}]`)),
  };
}

function describeEdit(edit: AppliedEdit, profiles: ProfilePart[][], name: () => string): FileEdit {
  const { bins } = edit;
  if (!Array.isArray(bins)) return edit;
  const [first, last] = bins;
  for (const parts of profiles) {
    const part = parts.find(
      (p) => (edit.partition === undefined || p.partition === edit.partition) && (edit.class === undefined || p.class === edit.class) && valueBins(p, edit.feature),
    );
    const found = part && valueBins(part, edit.feature);
    if (!found || last >= found.bins.length) continue;
    return found.kind === 'numeric'
      ? { ...edit, bounds: found.bins.slice(first, last + 1).map(binBounds) }
      : { ...edit, categories: found.bins.slice(first, last + 1).map((b) => b.category ?? '') };
  }
  throw new UserFacingError(
    l10n.t('{0} changes bins [{1}, {2}] of {3}, which the profile no longer lists, so they cannot be written by value. Export a version whose edits name features it still has.', name(), first, last, edit.feature),
  );
}
