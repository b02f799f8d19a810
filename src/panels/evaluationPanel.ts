import * as vscode from 'vscode';
import type { XModelsServices } from '../common/services';
import type { PanelDefinition } from './panelHost';
import { partitionLabel } from '../views/format';
import { evaluationArgs, hasSubject, subjectTitle } from './panelArgs';

export function evaluationPanel(services: XModelsServices): PanelDefinition<'evaluation'> {
  return {
    kind: 'evaluation',
    loadsArgsFirst: true,
    title: (args) => (hasSubject(args) ? subjectTitle(args, vscode.l10n.t('Evaluation')) : vscode.l10n.t('Evaluation {0}', args.partitionId.slice(0, 8))),
    key: (args) => args.partitionId,
    parseArgs: evaluationArgs,
    loadedTitle: (evaluation, args) => subjectTitle(args, vscode.l10n.t('Evaluation'), partitionLabel(evaluation.partition)),
    handlers: {
      async load(params, { signal }) {
        const client = await services.getClient();
        return client.models.getModelEvaluation(params.partitionId, { signal });
      },
      async autotrain(_params, { args }) {
        // Without the training CSV (a panel opened from the tree), the wizard asks for one.
        await vscode.commands.executeCommand('xmodels.autotrain.start', ...(args.csvPath ? [vscode.Uri.file(args.csvPath)] : []));
        return null;
      },
    },
  };
}
