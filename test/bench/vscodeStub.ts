// Importing this module makes `require('vscode')` return a stand-in (import it first): a stand-in for the `vscode` module, so the extension's own code can be loaded and timed in plain Node: every
// property is a callable, constructible stub, and calls return stubs, so registration code runs through.
import { readFileSync } from 'node:fs';
import Module from 'node:module';

function stub(): unknown {
  const target = function () {
    return undefined;
  };
  return new Proxy(target, {
    get(t, property) {
      if (property === 'then') return undefined;
      if (property === Symbol.toPrimitive) return () => '';
      if (property === Symbol.iterator) return function* () {};
      if (!Object.prototype.hasOwnProperty.call(t, property) || property === 'name' || property === 'length') {
        if (!Object.getOwnPropertyDescriptor(t, property)?.writable) Object.defineProperty(t, property, { value: stub(), writable: true, configurable: true });
      }
      return (t as unknown as Record<PropertyKey, unknown>)[property];
    },
    set(t, property, value) {
      Object.defineProperty(t, property, { value, writable: true, configurable: true, enumerable: true });
      return true;
    },
    apply: () => stub(),
    construct: () => stub() as object,
  });
}

/** The API's top-level names, from its type declarations (bundles copy a module's own properties when importing it). */
function apiNames(): string[] {
  const declarations = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  return [...declarations.matchAll(/^\texport (?:namespace|class|enum|function|const|let) (\w+)/gm)].map((m) => m[1]);
}

function installVSCodeStub(): Record<string, unknown> {
  const vscode = stub() as Record<string, unknown>;
  for (const name of apiNames()) void vscode[name];
  const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load;
  (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown })._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  return vscode;
}

/** The stand-in itself, for a benchmark to give some of its functions real behaviour. */
export const vscodeStandIn = installVSCodeStub();
