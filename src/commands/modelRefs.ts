import * as vscode from 'vscode';
import type { XModelsClient } from '../client';
import type { ModelInfo, ModelVersion } from '../contract';
import { UserFacingError } from '../common/errors';

/** A model or version argument: a tree node, or a plain `{modelId}` / `{modelId, versionId}` object. */
export interface ModelRef {
  modelId: string;
  model?: ModelInfo;
}
export interface VersionRef extends ModelRef {
  versionId: string;
  version?: ModelVersion;
}

export function asModelRef(arg: unknown): ModelRef | undefined {
  return typeof arg === 'object' && arg !== null && typeof (arg as ModelRef).modelId === 'string' ? (arg as ModelRef) : undefined;
}

export function asVersionRef(arg: unknown): VersionRef | undefined {
  const ref = asModelRef(arg) as VersionRef | undefined;
  return ref && typeof ref.versionId === 'string' ? ref : undefined;
}

/** The model and version behind a reference, fetched when the reference does not carry them. */
export async function resolveVersion(client: XModelsClient, ref: VersionRef): Promise<{ model: ModelInfo; version: ModelVersion }> {
  const model = ref.model ?? (await client.models.getModel(ref.modelId));
  const version = ref.version ?? (await client.models.listModelVersions(ref.modelId)).find((v) => v.version_id === ref.versionId);
  if (!version) throw new UserFacingError(vscode.l10n.t('Version {0} of model {1} no longer exists. Refresh the Models view.', ref.versionId, model.model_name));
  return { model, version };
}

export function requireRef<T>(ref: T | undefined, what: string): T {
  if (!ref) throw new UserFacingError(vscode.l10n.t('Run this command from a {0} in the XModels Models view.', what));
  return ref;
}
