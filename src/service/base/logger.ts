/** Service log lines go to stderr (stdout carries only the CLI's JSON line). */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export function stderrLogger(quiet = false): Logger {
  const write = (level: string, message: string) => process.stderr.write(`${new Date().toISOString()} ${level} ${message}\n`);
  return {
    info: (message) => {
      if (!quiet) write('info', message);
    },
    error: (message, error) => write('error', error instanceof Error ? `${message}: ${error.stack ?? error.message}` : message),
  };
}
