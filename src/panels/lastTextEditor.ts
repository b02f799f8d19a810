import * as vscode from 'vscode';

/** Remembers the last active text editor, since a focused webview panel leaves `activeTextEditor` undefined. */
export class LastTextEditor implements vscode.Disposable {
  private last: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
  private readonly subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor) this.last = editor;
  });

  /**
   * An editor on the last active document with its cursor where the user left it, shown again beside the panel
   * when it was hidden; a visible editor when that document is closed; undefined when no text editor is left.
   */
  async resolve(): Promise<vscode.TextEditor | undefined> {
    const last = this.last;
    if (!last || last.document.isClosed) return vscode.window.visibleTextEditors[0];
    const visible = vscode.window.visibleTextEditors.find((e) => e.document === last.document);
    if (visible) return visible;
    return vscode.window.showTextDocument(last.document, {
      selection: last.selection,
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
    });
  }

  /** The last active text editor as it was left (a notebook cell's editor too), without showing it again. */
  current(): vscode.TextEditor | undefined {
    return this.last && !this.last.document.isClosed ? this.last : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
