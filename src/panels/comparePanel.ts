import { UserFacingError } from '../common/errors';
import { l10n } from '../l10n/l10n';
import type { XModelsServices } from '../common/services';
import { compareArgs } from './panelArgs';
import type { PanelDefinition } from './panelHost';
import type { CompareArgs } from '../views/protocol';

const titleOf = (args: CompareArgs) => (args.modelName ? l10n.t('{0} · Compare versions', args.modelName) : l10n.t('Compare versions'));

export function comparePanel(services: XModelsServices): PanelDefinition<'compare'> {
  return {
    kind: 'compare',
    loadsArgsFirst: true,
    title: titleOf,
    // The same two versions are one comparison, whichever was picked first.
    key: (args) => [args.versionId, args.otherVersionId].sort().join(':'),
    parseArgs: compareArgs,
    loadedTitle: ({ modelName, newer, older }) =>
      l10n.t('{0} v{1} vs v{2}', modelName, newer.version.version_number, older.version.version_number),
    handlers: {
      async load(params, { signal }) {
        const client = await services.getClient();
        const [model, versions, first, second] = await Promise.all([
          client.models.getModel(params.modelId, { signal }),
          client.models.listModelVersions(params.modelId, { signal }),
          client.models.getModelProfile(params.versionId, { signal }),
          client.models.getModelProfile(params.otherVersionId, { signal }),
        ]);
        const recordOf = (versionId: string) => {
          const version = versions.find((v) => v.version_id === versionId);
          if (!version) throw new UserFacingError(l10n.t('Version {0} is no longer a version of {1}; refresh the XModels view and compare again.', versionId, model.model_name));
          return version;
        };
        const compared = [
          { version: recordOf(params.versionId), profile: first },
          { version: recordOf(params.otherVersionId), profile: second },
        ].sort((a, b) => b.version.version_number - a.version.version_number);
        return { modelName: model.model_name, newer: compared[0], older: compared[1] };
      },
    },
  };
}
