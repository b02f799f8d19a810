// Finds a desktop VS Code that can open a window: the `code` CLI on PATH and a display to show it on.
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

function hasDisplay(): boolean {
  return process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

/** The `code` CLI when a desktop VS Code can be started here. */
export function desktopCodeCli(): string | undefined {
  return hasDisplay() ? onPath('code') : undefined;
}

/**
 * The Electron executable behind the `code` CLI (Linux package layout: <install>/bin/code next to <install>/code),
 * for @vscode/test-electron.
 */
export function desktopCodeExecutable(): string | undefined {
  const cli = desktopCodeCli();
  if (!cli || process.platform !== 'linux') return undefined;
  return join(dirname(dirname(realpathSync(cli))), 'code');
}
