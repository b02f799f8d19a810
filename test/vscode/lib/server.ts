// Starts VS Code's server (from code-server) on a free loopback port with throw-away user data, and builds
// workbench URLs that load the extension under development (and optionally its extension-host tests).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, vscodeServerMain } from './paths';

/** Settings that keep VS Code from reaching the network or asking questions. */
export const quietSettings: Record<string, unknown> = {
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
};

export interface ServerOptions {
  /** Port to listen on; a free one when omitted. */
  port?: number;
  /**
   * Settings added to (or overriding) `quietSettings`, written as user and machine settings before start.
   * The web workbench applies live changes from the workspace's .vscode/settings.json (see workspace.ts).
   */
  settings?: Record<string, unknown>;
  /** Directory for user data, server data and extensions; a new temp dir (removed on stop) when omitted. */
  dataDir?: string;
  /** Extra environment for the server and so for its extension host. */
  env?: Record<string, string>;
  /** Print the server's output (otherwise it is kept and shown only when start-up fails). */
  verbose?: boolean;
  /** A packaged .vsix to install into the server's extensions folder before it starts (the product as users get it). */
  installVsix?: string;
}

export interface WorkbenchUrlOptions {
  /** Workspace folder to open. */
  folder: string;
  /** Extension root loaded as the development extension; the repository when omitted; null for none. */
  extensionDevelopmentPath?: string | null;
  /** Compiled test index (exports `run()`); the workbench then runs the tests and its extension host exits. */
  extensionTestsPath?: string;
}

export interface VSCodeServer {
  port: number;
  baseUrl: string;
  workbenchUrl(options: WorkbenchUrlOptions): string;
  /** Settles when the server process ends, with its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0: any free port) and closes again; returns the port, or throws when taken. */
function probePort(port: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new Error(`Port ${port} on 127.0.0.1 is already in use`) : err);
    });
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      probe.close(() => resolvePort(bound));
    });
  });
}

export function freePort(): Promise<number> {
  return probePort(0);
}

function waitForListening(child: ChildProcess, output: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`VS Code server did not start within ${timeoutMs / 1000} s. Its output:\n${output.join('')}`));
    }, timeoutMs);
    const onData = (): void => {
      if (output.join('').includes('Extension host agent listening')) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`VS Code server exited (${code ?? signal}) before it was ready. Its output:\n${output.join('')}`));
    });
  });
}

export async function startVSCodeServer(options: ServerOptions = {}): Promise<VSCodeServer> {
  const port = await probePort(options.port ?? 0);
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'xmodels-vscode-'));
  const settings = JSON.stringify({ ...quietSettings, ...options.settings }, null, 2);
  for (const settingsDir of [join(dataDir, 'user-data', 'User'), join(dataDir, 'server-data', 'data', 'Machine')]) {
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(join(settingsDir, 'settings.json'), settings);
  }

  const dirs = [
    '--user-data-dir', join(dataDir, 'user-data'),
    '--server-data-dir', join(dataDir, 'server-data'),
    '--extensions-dir', join(dataDir, 'extensions'),
  ];
  if (options.installVsix) {
    const installed = spawnSync(process.execPath, [vscodeServerMain, ...dirs, '--accept-server-license-terms', '--install-extension', options.installVsix], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    if (installed.status !== 0 || !/successfully installed/i.test(installed.stdout)) {
      throw new Error(`Installing ${options.installVsix} failed (exit ${installed.status}):\n${installed.stdout}\n${installed.stderr}`);
    }
  }
  const args = [
    vscodeServerMain,
    '--host', '127.0.0.1',
    '--port', String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    ...dirs,
  ];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that stopping it also ends the extension host and other children.
    detached: true,
  });
  const killGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-(child.pid as number), signal);
    } catch {
      // Already gone.
    }
  };
  // A launcher that exits without calling stop() must not leave the server behind.
  const killOnExit = (): void => killGroup('SIGKILL');
  process.once('exit', killOnExit);
  const output: string[] = [];
  const keep = (chunk: Buffer): void => {
    output.push(chunk.toString());
    if (options.verbose) process.stderr.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  try {
    await waitForListening(child, output, 60_000);
  } catch (err) {
    killGroup('SIGKILL');
    if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  const baseUrl = `http://127.0.0.1:${port}`;
  const remoteUri = (path: string): string => `vscode-remote://127.0.0.1:${port}${path}`;
  return {
    port,
    baseUrl,
    exited,
    workbenchUrl({ folder, extensionDevelopmentPath = repoRoot, extensionTestsPath }) {
      const payload: [string, string][] = extensionDevelopmentPath === null ? [] : [['extensionDevelopmentPath', remoteUri(extensionDevelopmentPath)]];
      if (extensionTestsPath) payload.push(['extensionTestsPath', remoteUri(extensionTestsPath)]);
      return `${baseUrl}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        killGroup('SIGTERM');
        const killTimer = setTimeout(() => killGroup('SIGKILL'), 5_000);
        await exited;
        clearTimeout(killTimer);
      }
      killGroup('SIGKILL');
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
