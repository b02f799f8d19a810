import * as vscode from 'vscode';
import { UserFacingError } from '../common/errors';

/** The notebook the user is working in: the one holding the last text editor's cell, else the active or a visible one. */
export function targetNotebook(lastEditor: vscode.TextEditor | undefined): vscode.NotebookEditor | undefined {
  const editors = vscode.window.visibleNotebookEditors;
  if (lastEditor && lastEditor.document.uri.scheme === 'vscode-notebook-cell') {
    const owner = editors.find((e) => e.notebook.getCells().some((c) => c.document === lastEditor.document));
    if (owner) return owner;
  }
  if (lastEditor && lastEditor.document.uri.scheme !== 'vscode-notebook-cell' && vscode.window.visibleTextEditors.includes(lastEditor)) return undefined;
  return vscode.window.activeNotebookEditor ?? editors[0];
}

/** Adds the code as a new code cell after the notebook's selection (never runs it); returns the new cell's 1-based number. */
export async function insertNotebookCell(editor: vscode.NotebookEditor, code: string): Promise<number> {
  const at = editor.selection.isEmpty ? editor.notebook.cellCount : editor.selection.end;
  const edit = new vscode.WorkspaceEdit();
  edit.set(editor.notebook.uri, [vscode.NotebookEdit.insertCells(at, [new vscode.NotebookCellData(vscode.NotebookCellKind.Code, code, 'python')])]);
  if (!(await vscode.workspace.applyEdit(edit))) {
    throw new UserFacingError(vscode.l10n.t('The code could not be added as a cell of {0}: the notebook may be read-only.', editor.notebook.uri.fsPath));
  }
  editor.revealRange(new vscode.NotebookRange(at, at + 1), vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
  return at + 1;
}
