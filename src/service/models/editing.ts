import type { PreviewEditsRequestParsed, PreviewEditsResult } from '../../contract';
import type { ServiceContext } from '../http/context';
import { requireVersion, versionRows } from './modeling';

/**
 * A version's steps after hand edits and its train and test metrics before and after them, on the rows a refit with
 * the same edits and data reports; nothing is stored.
 */
export async function previewEdits(
  ctx: ServiceContext,
  teamId: string,
  versionId: string,
  body: PreviewEditsRequestParsed,
  signal?: AbortSignal,
): Promise<PreviewEditsResult> {
  const version = await requireVersion(ctx, teamId, versionId);
  const { rows } = await versionRows(ctx, teamId, version, body);
  const outcome = await ctx.trainer.previewEdits({ ...rows, modelJson: version.model_json, edits: body.edits }, signal);
  return { version_id: version.version_id, features: outcome.parts[0]?.features ?? {}, ...outcome };
}
