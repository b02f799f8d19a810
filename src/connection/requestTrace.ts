import type * as vscode from 'vscode';
import type { XModelsClient } from '../client';

export type TraceLevel = 'off' | 'messages' | 'verbose';

const groups = ['models', 'autotrain', 'datasets', 'preprocessors'] as const;

/** Logs every client call (name, duration, outcome; with `verbose` its arguments, shortened) at the log's info level. */
export function traceClient(client: XModelsClient, log: vscode.LogOutputChannel, level: () => TraceLevel): XModelsClient {
  const wrap = <T extends object>(target: T, prefix: string): T =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return (...args: unknown[]) => {
          const current = level();
          if (current === 'off') return value.apply(object, args);
          const name = `${prefix}${property}`;
          const started = Date.now();
          log.info(`→ ${name}${current === 'verbose' ? ` ${shorten(args)}` : ''}`);
          const result = value.apply(object, args);
          if (result instanceof Promise) {
            result.then(
              () => log.info(`← ${name} ok in ${Date.now() - started} ms`),
              (error: unknown) => log.info(`← ${name} failed in ${Date.now() - started} ms: ${(error as Error)?.message ?? error}`),
            );
          }
          return result;
        };
      },
    });
  const traced = wrap(client, '');
  const tracedGroups = Object.fromEntries(groups.map((group) => [group, wrap(client[group], `${group}.`)]));
  return new Proxy(traced, {
    get(object, property, receiver) {
      return typeof property === 'string' && property in tracedGroups ? tracedGroups[property] : Reflect.get(object, property, receiver);
    },
  });
}

function shorten(args: unknown[]): string {
  const text = JSON.stringify(args.filter((arg) => arg !== undefined), (key, value: unknown) =>
    key === 'signal' ? undefined : typeof value === 'string' && value.length > 200 ? `${value.slice(0, 200)}…` : value,
  );
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}
