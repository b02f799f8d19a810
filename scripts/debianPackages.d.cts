/** Installs the missing Debian packages as root; otherwise throws, naming the command to run. */
export function ensureDebianPackages(names: string[]): void;
