// A webview panel drawn by headless Chromium, for timing the panels in plain Node: the extension's own PanelHost
// creates it through a stand-in `vscode.window.createWebviewPanel`, sets its HTML and exchanges messages with the
// page as VS Code would (`acquireVsCodeApi` in the page, `postMessage` both ways). Resources are served from
// `https://webview.test/`: dist/webview/* from `webviewDir`, media/* from the repository.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';

/** Where the page's resources are served from (its `cspSource`). */
export const ORIGIN = 'https://webview.test';
const PAGE_URL = `${ORIGIN}/panel.html`;

interface FsUri {
  fsPath: string;
}

/** Milliseconds (performance.now() in Node) at which the host saw each message of the page, by kind. */
export type MessageLog = { kind: string; at: number }[];

export interface BrowserPanel {
  page: Page;
  panel: unknown;
  messages: MessageLog;
  /** Resolves once a chart has its marks drawn. */
  firstChart(): Promise<void>;
}

function contentType(path: string): string {
  if (path.endsWith('.js')) return 'text/javascript';
  if (path.endsWith('.css')) return 'text/css';
  if (path.endsWith('.ttf')) return 'font/ttf';
  return 'text/html';
}

/** A page ready to become a webview panel (the VS Code side of it is `panel`). */
export async function openBrowserPanel(browser: Browser, root: string, webviewDir: string): Promise<BrowserPanel> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const messages: MessageLog = [];
  const listeners: ((message: unknown) => void)[] = [];
  let html = '';
  // As VS Code does, messages posted before the page has loaded wait for it.
  let pageLoaded: Promise<unknown> = Promise.resolve();
  await page.exposeFunction('__xmodelsPost', (message: { kind?: string; method?: string }) => {
    messages.push({ kind: message.method ?? message.kind ?? '?', at: performance.now() });
    for (const listener of listeners) listener(message);
  });
  // A string, not a function: the TypeScript loader would wrap a function's inner functions in a helper the page lacks.
  await page.addInitScript(`
    let state;
    window.acquireVsCodeApi = () => ({
      postMessage: (message) => window.__xmodelsPost(message),
      getState: () => state,
      setState: (next) => { state = next; },
    });
  `);
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname.slice(1);
    if (path === 'panel.html') return route.fulfill({ body: html, contentType: 'text/html' });
    const file = path.startsWith('dist/webview/') ? join(webviewDir, path.slice('dist/webview/'.length)) : join(root, path);
    return route.fulfill({ body: readFileSync(file), contentType: contentType(file) });
  });
  const panel = {
    title: '',
    active: true,
    webview: {
      cspSource: ORIGIN,
      options: {},
      asWebviewUri: (uri: FsUri) => ({ toString: () => `${ORIGIN}/${relative(root, uri.fsPath).split('\\').join('/')}` }),
      set html(value: string) {
        html = value;
        pageLoaded = page.goto(PAGE_URL).catch(() => undefined);
      },
      // As JSON text, as VS Code sends it (Playwright's own serialisation of a large object takes far longer); like
      // VS Code's, a message to a closed panel is dropped (false).
      postMessage: (message: unknown) =>
        pageLoaded.then(() => page.evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(message))).then(
          () => true,
          () => false,
        ),
      onDidReceiveMessage: (listener: (message: unknown) => void) => {
        listeners.push(listener);
        return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
      },
    },
    onDidDispose: () => ({ dispose() {} }),
    reveal() {},
    dispose() {},
  };
  const firstChart = async () => {
    // A function, not a string: the page's CSP refuses a string.
    await page.waitForFunction(() => document.querySelector('.chart svg .mark') !== null, undefined, { polling: 'raf', timeout: 60_000 });
  };
  return { page, panel, messages, firstChart };
}
