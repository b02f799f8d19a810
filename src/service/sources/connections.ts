import { isIP, type LookupFunction } from 'node:net';
import type { ConnectionKind } from '../../contract';
import { parseTarget } from '../store/postgresErrors';
import { DuckDbSource } from './duckdbSource';
import { PostgresSource } from './postgresSource';
import type { ConnectionTarget } from './connectionUrl';
import type { SqlSource } from './source';

/** How long listing waits for a connection's table count before leaving it out. */
const TABLE_COUNT_WAIT_MS = 3_000;
const TEST_TIMEOUT_MS = 15_000;

export interface NamedConnection {
  name: string;
  kind: ConnectionKind;
  /** `operator`: from serve --connection or XMODELS_CONNECTIONS; `api`: added by POST /v1/connections, in memory. */
  origin: 'operator' | 'api';
  source: SqlSource;
}

/** A connection opened with `lookup` reaches only the addresses it lets through. */
export function openSource(target: ConnectionTarget, lookup?: LookupFunction): SqlSource {
  return target.kind === 'postgres' ? new PostgresSource(target.url, lookup) : new DuckDbSource(target.duckdbPath as string);
}

/**
 * Where a team server lets connections added through the API reach: public addresses (each checked by `lookup`,
 * on every connection), and the hosts its operator allows, whatever their addresses.
 */
export interface ApiConnectionPolicy {
  lookup: LookupFunction;
  allowedHosts: readonly string[];
}

/** A host as `--connection-host` and a connection URL name it: lower case, an IPv6 literal in one spelling. */
function hostKey(host: string): string {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return isIP(bare) === 6 ? new URL(`http://[${bare}]`).hostname.slice(1, -1) : bare;
}

/** The service's named connections. Their URLs live only inside their sources, in memory. */
export class Connections {
  private readonly named = new Map<string, NamedConnection>();

  /** Without `apiPolicy` (the local service), a connection added through the API is connected wherever it points. */
  constructor(
    operator: ReadonlyMap<string, ConnectionTarget>,
    private readonly apiPolicy: ApiConnectionPolicy | null = null,
  ) {
    for (const [name, target] of operator) this.named.set(name, { name, kind: target.kind, origin: 'operator', source: openSource(target) });
  }

  list(): NamedConnection[] {
    return [...this.named.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  find(name: string): NamedConnection | null {
    return this.named.get(name) ?? null;
  }

  /**
   * Tests the connection (connect and a trivial query, within a bounded time) and adds it, replacing an added one of
   * the same name; an operator's connection cannot be replaced. The test's SourceError says what failed.
   */
  async add(name: string, target: ConnectionTarget): Promise<NamedConnection | 'operator'> {
    if (this.named.get(name)?.origin === 'operator') return 'operator';
    const source = openSource(target, this.lookupFor(target));
    try {
      await source.test({ signal: AbortSignal.timeout(TEST_TIMEOUT_MS) });
    } catch (error) {
      await source.close().catch(() => undefined);
      throw error;
    }
    const replaced = this.named.get(name);
    const added: NamedConnection = { name, kind: target.kind, origin: 'api', source };
    this.named.set(name, added);
    await replaced?.source.close().catch(() => undefined);
    return added;
  }

  /** How a connection added through the API resolves and checks its host; undefined when it is not checked. */
  private lookupFor(target: ConnectionTarget): LookupFunction | undefined {
    if (!this.apiPolicy || target.kind !== 'postgres') return undefined;
    const allowed = this.apiPolicy.allowedHosts.map(hostKey).includes(hostKey(parseTarget(target.url).host));
    return allowed ? undefined : this.apiPolicy.lookup;
  }

  /** Removes a connection added through the API; an operator's stays. */
  async remove(name: string): Promise<'removed' | 'unknown' | 'operator'> {
    const found = this.named.get(name);
    if (!found) return 'unknown';
    if (found.origin === 'operator') return 'operator';
    this.named.delete(name);
    await found.source.close().catch(() => undefined);
    return 'removed';
  }

  /** How many tables and views the connection can read; undefined when it does not answer soon. */
  async tableCount(connection: NamedConnection): Promise<number | undefined> {
    const signal = AbortSignal.timeout(TABLE_COUNT_WAIT_MS);
    const late = new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
    const counted = connection.source.tables({ signal }).then(
      (tables) => tables.length,
      () => undefined,
    );
    return Promise.race([counted, late]);
  }

  async close(): Promise<void> {
    await Promise.all([...this.named.values()].map((c) => c.source.close().catch(() => undefined)));
    this.named.clear();
  }
}
