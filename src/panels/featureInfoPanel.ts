import type { XModelsServices } from '../common/services';
import type { PanelDefinition } from './panelHost';
import { featureInfoArgs, hasSubject, subjectTitle } from './panelArgs';

export function featureInfoPanel(services: XModelsServices): PanelDefinition<'featureInfo'> {
  return {
    kind: 'featureInfo',
    loadsArgsFirst: true,
    title: (args) => (hasSubject(args) ? subjectTitle(args, 'Feature info') : `Feature info ${args.versionId.slice(0, 8)}`),
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
