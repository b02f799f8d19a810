import * as z from 'zod';
import { EditSchema, IdSchema } from '../../contract';
import { UserFacingError } from '../../common/errors';
import { l10n } from '../../l10n/l10n';

/** What the `format` field of an edits file says, so a file is recognised whatever its name. */
export const EDITS_FILE_FORMAT = 'xmodels-edits';
/** The version of the file format this extension writes and reads. */
export const EDITS_FILE_VERSION = 1;

/** A bin's bound: null is −∞ as a lower bound and +∞ as an upper one. */
const BoundSchema = z.number().nullable();

/**
 * One edit as the file keeps it: the wire's edit, with the bins of a range also given by value (their bounds, or
 * their categories) as they were when the edit was made, so it can be put on other bins of the same values.
 */
export const FileEditSchema = z
  .strictObject({
    feature: EditSchema.shape.feature,
    op: EditSchema.shape.op,
    bins: EditSchema.shape.bins,
    bounds: z.array(z.tuple([BoundSchema, BoundSchema])).min(1).optional().describe('a numeric feature: [lower, upper] of each bin of bins'),
    categories: z.array(z.string()).min(1).optional().describe('a categorical feature: the category of each bin of bins'),
    value: EditSchema.shape.value,
    direction: EditSchema.shape.direction,
    class: EditSchema.shape.class,
    partition: EditSchema.shape.partition,
    applied_at: z.string().optional(),
    applied_by: z.string().optional(),
  })
  .superRefine((edit, ctx) => {
    if (Array.isArray(edit.bins) && edit.bins[0] > edit.bins[1]) ctx.addIssue({ code: 'custom', path: ['bins'], message: l10n.t('the first bin {0} comes after the last bin {1}', edit.bins[0], edit.bins[1]) });
    const described = edit.bounds ?? edit.categories;
    if (edit.bounds && edit.categories) ctx.addIssue({ code: 'custom', path: ['categories'], message: l10n.t('give bounds (numeric bins) or categories, not both') });
    if (!described) return;
    const field = edit.bounds ? 'bounds' : 'categories';
    if (!Array.isArray(edit.bins)) {
      ctx.addIssue({ code: 'custom', path: [field], message: l10n.t('belongs to an edit of a range of bins; give bins [first, last] with it') });
      return;
    }
    if (edit.categories && new Set(edit.categories).size < edit.categories.length) ctx.addIssue({ code: 'custom', path: ['categories'], message: l10n.t('names a category twice') });
    const count = edit.bins[1] - edit.bins[0] + 1;
    if (described.length !== count) {
      ctx.addIssue({ code: 'custom', path: [field], message: l10n.t('lists {0} bins, but bins [{1}] are {2}', described.length, edit.bins.join(', '), count) });
    }
    edit.bounds?.forEach(([lower, upper], i) => {
      if (lower !== null && upper !== null && !(lower < upper)) ctx.addIssue({ code: 'custom', path: ['bounds', i], message: l10n.t('the lower bound {0} is not below the upper bound {1}', lower, upper) });
      const next = edit.bounds?.[i + 1];
      if (next && next[0] !== upper) ctx.addIssue({ code: 'custom', path: ['bounds', i + 1], message: l10n.t('a bin ending at {0} is followed by one starting at {1}; the bins of a range are neighbours', String(upper), String(next[0])) });
    });
  });
export type FileEdit = z.infer<typeof FileEditSchema>;

/** The model and version the edits were made on. */
export const EditsSourceSchema = z.strictObject({
  model_id: IdSchema,
  model_name: z.string(),
  target_name: z.string(),
  version_id: IdSchema,
  version_number: z.number().int().positive(),
  parent_version_id: IdSchema.nullable().describe('the version whose bins the edits name'),
});
export type EditsSource = z.infer<typeof EditsSourceSchema>;

/** An edits file; its fields are written in this order. */
export const EditsFileSchema = z.strictObject({
  format: z.literal(EDITS_FILE_FORMAT),
  version: z.literal(EDITS_FILE_VERSION),
  source: EditsSourceSchema,
  edits: z.array(FileEditSchema),
});
export type EditsFile = z.infer<typeof EditsFileSchema>;

/** The file's text: the schema's field order, two-space indentation and a final newline, so it diffs well in git. */
export function editsFileText(file: EditsFile): string {
  return `${JSON.stringify(EditsFileSchema.parse(file), null, 2)}\n`;
}

/** A file name for a version's edits: `<model>-v<n>.edits.json`, with characters that file systems refuse replaced. */
export function editsFileName(modelName: string, versionNumber: number): string {
  const name = modelName.replace(/[\\/:*?"<>|\s]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'model';
  return `${name}-v${versionNumber}.edits.json`;
}

/** Reads an edits file; a problem is a UserFacingError naming the file, the field and what is wrong. */
export function parseEditsFile(text: string, fileName: string): EditsFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserFacingError(l10n.t('{0} is not JSON ({1}). Choose a file written by "Export Edits".', fileName, (error as Error).message));
  }
  const head = json as { format?: unknown; version?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== EDITS_FILE_FORMAT) {
    throw new UserFacingError(l10n.t('{0} is not an edits file: its "format" should be "{1}". Choose a file written by "Export Edits".', fileName, EDITS_FILE_FORMAT));
  }
  if (head.version !== EDITS_FILE_VERSION) {
    const newer = typeof head.version === 'number' && head.version > EDITS_FILE_VERSION;
    throw new UserFacingError(
      newer
        ? l10n.t('{0} is an edits file of format version {1}, newer than this extension reads ({2}). Update the XModels extension.', fileName, String(head.version), EDITS_FILE_VERSION)
        : l10n.t('{0} has "version" {1}; an edits file has version {2}.', fileName, JSON.stringify(head.version) ?? 'undefined', EDITS_FILE_VERSION),
    );
  }
  const parsed = EditsFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    throw new UserFacingError(l10n.t('{0}: {1} is not a field of an edits file. Correct the file and try again.', fileName, fieldPath([...issue.path, issue.keys[0]])));
  }
  const path = fieldPath(issue.path);
  const value = valueAt(json, issue.path);
  const got = value === undefined ? '' : ` (${l10n.t('got {0}', JSON.stringify(value))})`;
  throw new UserFacingError(l10n.t('{0}: {1}: {2}{3}. Correct the file and try again.', fileName, path, issue.message, got));
}

/** `edits[2].bounds[0]`: a field's path as the messages write it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '') || '(file)';
}

function valueAt(json: unknown, path: readonly PropertyKey[]): unknown {
  let at = json;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}
