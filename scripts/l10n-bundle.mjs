// `npm run l10n`: writes l10n/bundle.l10n.json, the English bundle of every `vscode.l10n.t('…')` message in src/
// (the key and the English text are the message itself). Messages must be string literals, with {0}-style
// placeholders, so they can be found without running the code.
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CALL = /\bl10n\.t\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")/g;

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every message of the files, sorted, as the bundle's object. */
export function extractBundle(root = '.') {
  const messages = new Set();
  for (const file of sourceFiles(join(root, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(CALL)) {
      const [, single, double] = match;
      messages.add(single !== undefined ? JSON.parse(`"${single.replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) : JSON.parse(`"${double}"`));
    }
  }
  return Object.fromEntries([...messages].sort().map((message) => [message, message]));
}

export const BUNDLE_PATH = join('l10n', 'bundle.l10n.json');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync('l10n', { recursive: true });
  const bundle = extractBundle();
  writeFileSync(BUNDLE_PATH, `${JSON.stringify(bundle, null, 2)}\n`);
  console.log(`${BUNDLE_PATH}: ${Object.keys(bundle).length} messages`);
}
