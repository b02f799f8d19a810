import { randomUUID } from 'node:crypto';
import type { CreatePreprocessorResponse, PreprocessorStep } from '../../contract';
import type { ServiceContext } from '../http/context';
import { requireDataset } from '../datasets/register';
import { insertPreprocessor, insertPreprocessorVersion } from '../store/preprocessors';

/** Fits the steps on the team's dataset (off the request thread) and stores the preprocessor with its first version. */
export async function createPreprocessor(
  ctx: ServiceContext,
  teamId: string,
  request: { name: string; description: string; dataset_id: string; steps: PreprocessorStep[] },
  signal?: AbortSignal,
): Promise<CreatePreprocessorResponse> {
  const dataset = await requireDataset(ctx, teamId, request.dataset_id);
  const fitted = await ctx.trainer.fitPreprocessor(
    { source: { path: dataset.path, label: `Dataset ${dataset.dataset_id}` }, steps: request.steps },
    signal,
  );
  const ids = { preprocessor_id: randomUUID(), version_id: randomUUID() };
  await ctx.store.transaction(async (tx) => {
    await insertPreprocessor(tx, teamId, { preprocessor_id: ids.preprocessor_id, name: request.name, description: request.description });
    await insertPreprocessorVersion(tx, {
      version_id: ids.version_id,
      preprocessor_id: ids.preprocessor_id,
      steps: request.steps,
      fitted,
      dataset_id: dataset.dataset_id,
    });
  });
  return ids;
}
