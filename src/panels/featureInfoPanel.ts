import type { XModelsServices } from '../common/services';
import type { PanelDefinition } from './panelHost';
import { featureInfoArgs, hasSubject, subjectTitle } from './panelArgs';
import { l10n } from '../l10n/l10n';

export function featureInfoPanel(services: XModelsServices): PanelDefinition<'featureInfo'> {
  return {
    kind: 'featureInfo',
    loadsArgsFirst: true,
    title: (args) => (hasSubject(args) ? subjectTitle(args, l10n.t('Feature info')) : l10n.t('Feature info {0}', args.versionId.slice(0, 8))),
    key: (args) => args.versionId,
    parseArgs: featureInfoArgs,
    handlers: {
      async load(params, { signal }) {
        const client = await services.getClient();
        return client.models.getFeatureInfo(params.versionId, { signal });
      },
    },
  };
}
