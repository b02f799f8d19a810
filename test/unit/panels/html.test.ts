import assert from 'node:assert/strict';
import { createNonce, renderPanelHtml } from '../../../src/panels/html';

const cspSource = 'https://file+.vscode-resource.vscode-cdn.net';

function render(nonce = createNonce(), title = 'Profile') {
  return renderPanelHtml({
    title,
    cspSource,
    nonce,
    scriptUri: `${cspSource}/ext/dist/webview/profile.js`,
    styleUris: [`${cspSource}/ext/media/webview/panels.css`],
    codiconUri: `${cspSource}/ext/dist/webview/codicon.css`,
  });
}

function cspOf(html: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  assert.ok(match, 'the page has a CSP meta tag');
  return match[1].replace(/&#39;|&apos;/g, "'");
}

describe('panels: HTML and Content-Security-Policy', () => {
  it('denies everything by default and allows scripts only by nonce', () => {
    const nonce = createNonce();
    const csp = cspOf(render(nonce));
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), [`'nonce-${nonce}'`]);
    assert.deepEqual(directives.get('style-src'), [cspSource]);
    assert.deepEqual(directives.get('font-src'), [cspSource]);
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'));
    assert.ok(!directives.has('connect-src'), 'the webview may not open network connections');
  });

  it('has no inline script and a matching nonce on every script', () => {
    const nonce = createNonce();
    const html = render(nonce);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0);
    for (const [, attributes, body] of scripts) {
      assert.equal(body.trim(), '', 'script bodies are empty');
      assert.match(attributes, /\ssrc="[^"]+"/);
      assert.ok(attributes.includes(`nonce="${nonce}"`));
    }
    assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handlers');
    assert.doesNotMatch(html, /<style\b|\sstyle=/i, 'no inline styles');
  });

  it('uses a fresh 128-bit nonce per render', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => createNonce()));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) assert.equal(Buffer.from(nonce, 'base64').length, 16);
  });

  it('escapes the title and links the codicons by the id vscode-icon looks for', () => {
    const html = render(createNonce(), 'Chart: <b>"x"</b>');
    assert.ok(html.includes('<title>Chart: &lt;b&gt;&quot;x&quot;&lt;/b&gt;</title>'));
    assert.match(html, /<link id="vscode-codicon-stylesheet" rel="stylesheet" href="[^"]+codicon\.css">/);
  });
});
