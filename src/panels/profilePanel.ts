import type { ModelVersion, RefitData } from '../contract/models';
import { UserFacingError } from '../common/errors';
import type { XModelsServices } from '../common/services';
import { methodOfVersion } from '../views/trainingParams';
import type { PanelDefinition } from './panelHost';
import { panelProfile } from '../views/classProfiles';
import { profileArgs, hasSubject, subjectTitle } from './panelArgs';
import type { EditsPreview, ProfileArgs, SavedEdits, SaveEditsParams } from '../views/protocol';
import { l10n } from '../l10n/l10n';

const shortId = (id: string) => id.slice(0, 8);

/** Why a version cannot be refit from the panel, or undefined when it can. */
export function refitBlocker(args: ProfileArgs, version: ModelVersion | undefined): string | undefined {
  if (!args.modelId) return l10n.t('Open this profile from the version in the XModels view to refit a feature.');
  if (!version) return l10n.t('This version is no longer among the model\u2019s versions; refresh the XModels view.');
  if (!version.dataset_id) return l10n.t('This version has no stored dataset (it was uploaded), so it cannot be refit.');
  return undefined;
}

/** Why a version's steps cannot be edited from the panel, or undefined when they can. */
export function editBlocker(args: ProfileArgs, version: ModelVersion | undefined): string | undefined {
  if (!args.modelId) return l10n.t('Open this profile from the version in the XModels view to edit its steps.');
  if (!version) return l10n.t('This version is no longer among the model\u2019s versions; refresh the XModels view.');
  return undefined;
}

/** Saves the panel's hand edits as a new version (the command behind "Save as new version"). */
export interface EditsSaver {
  save(params: SaveEditsParams): Promise<SavedEdits>;
}

export function profilePanel(services: XModelsServices, edits: EditsSaver): PanelDefinition<'profile'> {
  /** The rows each loaded version's edits are previewed on (its dataset and target), or null when it has no dataset. */
  const previewRows = new Map<string, RefitData | null>();
  return {
    kind: 'profile',
    loadsArgsFirst: true,
    title: (args) => (hasSubject(args) ? subjectTitle(args, l10n.t('Profile')) : l10n.t('Profile {0}', shortId(args.versionId))),
    key: (args) => args.versionId,
    parseArgs: profileArgs,
    loadedTitle: ({ version }, args) => {
      const subject = { ...args, ...(version ? { versionNumber: version.version_number } : {}) };
      return hasSubject(subject) ? subjectTitle(subject, l10n.t('Profile')) : l10n.t('Profile {0}', shortId(args.versionId));
    },
    handlers: {
      async load(params, { signal }) {
        const client = await services.getClient();
        const [profile, partitionList, versions] = await Promise.all([
          client.models.getModelProfile(params.versionId, { signal }),
          client.models.listModelVersionPartitions(params.versionId, { signal }),
          params.modelId ? client.models.listModelVersions(params.modelId, { signal }) : Promise.resolve(undefined),
        ]);
        const version = versions?.find((v) => v.version_id === params.versionId);
        const refitUnavailable = refitBlocker(params, version);
        const editUnavailable = editBlocker(params, version);
        const { scopes, ...shown } = panelProfile(profile);
        if (version) previewRows.set(version.version_id, version.dataset_id ? { dataset_id: version.dataset_id, target_column: profile.target_name } : null);
        return {
          ...shown,
          partitions: partitionList.partitions,
          ...(version ? { version } : {}),
          ...(refitUnavailable ? { refitUnavailable } : {}),
          ...(editUnavailable || !version ? { editUnavailable } : { editing: { method: methodOfVersion(version.parameters), scopes } }),
        };
      },

      async previewEdits({ versionId, edits: list }, { signal }): Promise<EditsPreview> {
        const rows = previewRows.get(versionId);
        if (!rows) {
          return {
            kind: 'noMetrics',
            message: l10n.t(
              'This version has no stored dataset (it was trained on inline or public data, or uploaded), so the metrics after the edits are not known yet. The chart shows the edits; Save as new version asks for the rows to compute them on.',
            ),
          };
        }
        const client = await services.getClient();
        const { parts, before, after } = await client.models.previewEdits(versionId, { edits: list, ...rows }, { signal });
        return { kind: 'metrics', parts, before, after };
      },

      saveEdits(params) {
        return edits.save(params);
      },

      async refit({ versionId, modelId, feature, params }, { signal }) {
        const client = await services.getClient();
        const [model, versions] = await Promise.all([
          client.models.getModel(modelId, { signal }),
          client.models.listModelVersions(modelId, { signal }),
        ]);
        const version = versions.find((v) => v.version_id === versionId);
        const blocker = refitBlocker({ versionId, modelId }, version);
        if (blocker || !version?.dataset_id) throw new UserFacingError(blocker ?? l10n.t('This version cannot be refit.'));
        const testSize = version.parameters.test_size;
        const result = await client.models.refitModel(
          versionId,
          {
            dataset_id: version.dataset_id,
            target_column: model.target_name,
            feature_params: { [feature]: params },
            ...(typeof testSize === 'number' ? { test_size: testSize } : {}),
          },
          { signal },
        );
        const [profile, updatedVersions] = await Promise.all([
          client.models.getModelProfile(result.version_id, { signal }),
          client.models.listModelVersions(modelId, { signal }),
        ]);
        services.revealModel(modelId, result.version_id).catch((error: unknown) => {
          services.log.warn(`Could not reveal the refit version ${result.version_id}: ${String(error)}`);
        });
        const versionNumber = updatedVersions.find((v) => v.version_id === result.version_id)?.version_number;
        return {
          versionId: result.version_id,
          ...(versionNumber !== undefined ? { versionNumber } : {}),
          profile: panelProfile(profile).profile,
          parametersChanged: result.parameters_changed,
        };
      },
    },
  };
}
