/**
 * Localisation for the modules that do not import the VS Code API (they also run in unit tests and in the
 * webviews): `l10n.t` is `vscode.l10n.t` once the extension has activated (`translateWith`), else the English
 * message with its `{0}`-style placeholders filled in. Messages are string literals, so `npm run l10n` finds them.
 */
type Translate = (message: string, ...args: (string | number | boolean)[]) => string;

const english: Translate = (message, ...args) => message.replace(/\{(\d+)\}/g, (match, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : match));

let translate: Translate = english;

export const l10n = {
  t: (message: string, ...args: (string | number | boolean)[]): string => translate(message, ...args),
};

/** Routes `l10n.t` through VS Code's bundle of the user's language (`undefined`: back to English). */
export function translateWith(t: Translate | undefined): void {
  translate = t ?? english;
}
