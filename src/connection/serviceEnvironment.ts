/**
 * The environment the extension gives its local service: what Node needs to run, the network's proxy and
 * certificate settings, and the text-generation variables the extension's settings fall back to. Nothing else: a
 * variable that selects a store, a team, a data folder or a connection (`XMODELS_DATABASE_URL`, `XMODELS_CONNECTIONS`,
 * `PGHOST`, `PGPASSWORD`…) is set for a service the user runs on purpose, and must not turn the extension's local
 * service into a client of that team's database.
 *
 * NODE_PATH is left out too: the service loads the packages its bundle leaves out (`@duckdb/node-api`) as Node
 * resolves them from `dist/cli.js`, from `dist/node_modules` in a platform package and from the repository's
 * `node_modules` in development, so a user's NODE_PATH could only load other versions of them.
 */
const NAMES = [
  // Node and the process itself.
  'PATH',
  'HOME',
  'TMPDIR',
  'TEMP',
  'TMP',
  'LANG',
  'LANGUAGE',
  'TZ',
  // Windows: the system folders and the user's profile, which Node's os module and child processes read.
  'SystemRoot',
  'SystemDrive',
  'windir',
  'ComSpec',
  'PATHEXT',
  'USERPROFILE',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  // The network: proxies (both spellings are in use) and extra certificate authorities.
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // Text generation: with no key or address in the settings, autotrain uses these (see src/common/textgen.ts).
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'AZURE_OPENAI_ENDPOINT',
  'AZURE_OPENAI_API_KEY',
];

const EXACT = new Set(NAMES);
/** Windows spells environment names in any case (`Path`, `SYSTEMROOT`). */
const ANY_CASE = new Set(NAMES.map((name) => name.toUpperCase()));

function isPassed(name: string, platform: NodeJS.Platform): boolean {
  if (name.startsWith('LC_')) return true;
  return platform === 'win32' ? ANY_CASE.has(name.toUpperCase()) : EXACT.has(name);
}

/** The local service's environment, from the extension host's; `ELECTRON_RUN_AS_NODE` makes VS Code's binary a plain Node. */
export function localServiceEnvironment(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): NodeJS.ProcessEnv {
  const passed: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && isPassed(name, platform)) passed[name] = value;
  }
  passed.ELECTRON_RUN_AS_NODE = '1';
  return passed;
}
