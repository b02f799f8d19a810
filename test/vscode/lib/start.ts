// `npm start`: the extension loaded in VS Code with the sample workspace (.vscode-test/sample-workspace).
// A desktop VS Code when its `code` CLI and a display are there; otherwise VS Code's server, opened in a browser
// at the printed local address, until Ctrl-C.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt } from './build';
import { ensureCodeServer } from './codeServer';
import { desktopCodeCli } from './desktop';
import { cacheDir, repoRoot } from './paths';
import { startVSCodeServer } from './server';
import { createSampleWorkspace } from './workspace';

const defaultPort = 3777;

function parsePort(args: string[]): number {
  const i = args.indexOf('--port');
  if (i < 0) return defaultPort;
  const port = Number(args[i + 1]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`--port must be a whole number from 1 to 65535, got "${args[i + 1] ?? ''}"`);
  }
  return port;
}

function startDesktop(cli: string, workspace: string): Promise<number> {
  console.log(`Opening VS Code with XModels loaded and the sample workspace ${workspace}`);
  const child = spawn(cli, ['--new-window', `--extensionDevelopmentPath=${repoRoot}`, workspace], { stdio: 'inherit' });
  return new Promise((done) => child.once('exit', (code) => done(code ?? 1)));
}

async function startInBrowser(port: number, workspace: string): Promise<number> {
  ensureCodeServer();
  const server = await startVSCodeServer({ port, dataDir: join(cacheDir, 'start-data') }).catch((err: Error) => {
    throw new Error(`${err.message}. Choose another port with: npm start -- --port <port>`);
  });
  console.log('\nXModels is running in VS Code. Open this address in a browser:\n');
  console.log(`  ${server.workbenchUrl({ folder: workspace })}\n`);
  console.log(`Sample workspace: ${workspace}`);
  console.log('Press Ctrl-C to stop.');
  let stopping = false;
  const stopped = new Promise<number>((done) => {
    const stop = (): void => {
      stopping = true;
      console.log('\nStopping VS Code server...');
      void server.stop().then(() => done(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  const crashed = server.exited.then((code) => {
    if (stopping) return stopped;
    console.error(`VS Code server stopped unexpectedly (exit code ${code}).`);
    return 1;
  });
  return Promise.race([stopped, crashed]);
}

/** Starts the product; returns the process exit code. */
export async function start(args: string[]): Promise<number> {
  try {
    const port = parsePort(args);
    ensureBuilt({ whenStale: true });
    const workspace = createSampleWorkspace(join(cacheDir, 'sample-workspace'));
    const cli = desktopCodeCli();
    return cli ? await startDesktop(cli, workspace) : await startInBrowser(port, workspace);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
}
