import type { XModelsServices } from '../common/services';
import type { PanelDefinition } from './panelHost';
import { featureInfoArgs } from './panelArgs';

export function featureInfoPanel(services: XModelsServices): PanelDefinition<'featureInfo'> {
  return {
    kind: 'featureInfo',
    title: (args) => `Feature info ${args.versionId.slice(0, 8)}`,
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
