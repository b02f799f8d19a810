import * as vscode from 'vscode';
import type { PanelDefinition } from './panelHost';
import { datasetKey, datasetSummaryArgs } from './panelArgs';
import { summaryActionCommand } from './summaryActions';

export function datasetSummaryPanel(): PanelDefinition<'datasetSummary'> {
  return {
    kind: 'datasetSummary',
    title: (args) => vscode.l10n.t('Summary: {0}', args.summary.name),
    key: datasetKey,
    parseArgs: datasetSummaryArgs,
    handlers: {
      load: async (_params, { args }) => args,
      async run(action, { args }) {
        const [command, argument] = summaryActionCommand(args, action);
        await vscode.commands.executeCommand(command, argument);
        return null;
      },
    },
  };
}
