import * as vscode from 'vscode';
import { UserFacingError } from '../common/errors';
import type { XModelsServices } from '../common/services';
import { withDataFileName, withLocalData } from './chartDataPath';
import type { LastTextEditor } from './lastTextEditor';
import { insertNotebookCell, targetNotebook } from './notebookInsert';
import type { PanelDefinition } from './panelHost';
import { datasetKey, visualizationArgs } from './panelArgs';

export function visualizationPanel(services: XModelsServices, editors: LastTextEditor): PanelDefinition<'visualization'> {
  return {
    kind: 'visualization',
    title: (args) => vscode.l10n.t('Chart: {0}', args.goal.question),
    key: (args) => `${datasetKey(args)}#${args.goal.index}:${args.goal.question}`,
    parseArgs: visualizationArgs,
    handlers: {
      async load({ library }, { args, signal }) {
        const client = await services.getClient();
        const textgen_config = await services.textGenConfig();
        return withLocalData(await client.autotrain.visualizeData({ summary: args.summary, goal: args.goal, library, textgen_config }, { signal }), args);
      },

      async fixChart({ library, code, instruction }, { args, signal }) {
        const client = await services.getClient();
        const textgen_config = await services.textGenConfig();
        const edit = { code: withDataFileName(code, args), instruction };
        return withLocalData(await client.autotrain.visualizeData({ summary: args.summary, goal: args.goal, library, textgen_config, edit }, { signal }), args);
      },

      async insertAtCursor({ code }) {
        const notebook = targetNotebook(editors.current());
        if (notebook) return { fileName: notebook.notebook.uri.fsPath, cell: await insertNotebookCell(notebook, code) };
        const editor = await editors.resolve();
        if (!editor) {
          throw new UserFacingError(vscode.l10n.t('No text editor is open to insert into: open a file, place the cursor, then choose Insert at cursor again.'));
        }
        const inserted = await editor.edit((edit) => edit.replace(editor.selection, code));
        if (!inserted) throw new UserFacingError(vscode.l10n.t('The code could not be inserted into {0}: the file may be read-only.', editor.document.fileName));
        await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
        return { fileName: editor.document.fileName };
      },

      async openAsNewFile({ code }) {
        const document = await vscode.workspace.openTextDocument({ language: 'python', content: code });
        await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside });
        return null;
      },

      async copy({ code }) {
        await vscode.env.clipboard.writeText(code);
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Chart code copied to the clipboard.'), 3000);
        return null;
      },
    },
  };
}
