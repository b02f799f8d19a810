import { threadId } from 'node:worker_threads';

/** Whether a process with this pid runs on this machine (one of another user counts). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let written = 0;

/** `<pid>-<thread>-<n>`: no other writer (thread, process or call) uses it, and it names the process that writes. */
const writerTag = () => `${process.pid}-${threadId}-${++written}`;

/**
 * A temporary name beside `target` that no other writer uses: several may write the same file at once (parts of one
 * predict converting an older dataset, replicas fetching one dataset), and each renames its own complete file over
 * the target. A service killed while writing leaves it behind; the next start removes it (`removeLeftovers`).
 */
export function partPath(target: string): string {
  return `${target}.${writerTag()}.part`;
}

/** The marker of an upload whose dataset is not registered yet: while it exists, `target`'s files may be half-made. */
export function pendingPath(target: string): string {
  return `${target}.${writerTag()}.pending`;
}

export interface ScratchName {
  /** The process that wrote the file. */
  writer: number;
  kind: 'part' | 'pending';
  /** The name of the file it stands for (`x.csv` for `x.csv.<tag>.part` or `x.csv.<tag>.part.frame`). */
  target: string;
}

const TAGGED = /\.(\d+)-\d+-\d+\.(part|pending)(?=\.|$)/;

/** What a file name written by `partPath` or `pendingPath` (or derived from one) says; null for any other file. */
export function scratchName(name: string): ScratchName | null {
  const match = TAGGED.exec(name);
  if (!match) return null;
  return { writer: Number(match[1]), kind: match[2] as ScratchName['kind'], target: name.slice(0, match.index) };
}

/**
 * Whether the process that wrote a scratch file is gone. Asked at start-up, before this process writes anything, so
 * a file tagged with this process's own pid is from an earlier process that had the same pid (after a reboot, or as
 * pid 1 of a container).
 */
export function writerGone(pid: number): boolean {
  return pid === process.pid || !processAlive(pid);
}
