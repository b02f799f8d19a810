import { randomBytes } from 'node:crypto';

export interface PanelHtmlOptions {
  title: string;
  /** The webview's `cspSource` (origin allowed for styles, fonts and images). */
  cspSource: string;
  /** A fresh nonce for this render (see `createNonce`). */
  nonce: string;
  /** Webview URIs (as strings) of the panel bundle and its style sheets. */
  scriptUri: string;
  styleUris: readonly string[];
  /** The codicon style sheet; the id lets `<vscode-icon>` find it. */
  codiconUri: string;
}

/** A crypto-random nonce for one render of a panel. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The Content-Security-Policy of every panel: nothing by default, scripts only by nonce, no network. */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

/** The HTML shell of a panel: no inline script or style; the bundle renders everything into `#app`. */
export function renderPanelHtml(options: PanelHtmlOptions): string {
  const nonce = escapeAttribute(options.nonce);
  const styles = [
    `<link id="vscode-codicon-stylesheet" rel="stylesheet" href="${escapeAttribute(options.codiconUri)}">`,
    ...options.styleUris.map((uri) => `<link rel="stylesheet" href="${escapeAttribute(uri)}">`),
  ];
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(panelCsp(options.cspSource, options.nonce))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    ...styles,
    `<title>${escapeAttribute(options.title)}</title>`,
    '</head>',
    '<body>',
    '<main id="app" aria-busy="true"></main>',
    `<script nonce="${nonce}" src="${escapeAttribute(options.scriptUri)}"></script>`,
    '</body>',
    '</html>',
  ].join('\n');
}
