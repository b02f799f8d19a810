import type { Database as WasmDatabase, Statement } from 'node-sqlite3-wasm';
import type { Params, Row } from './sql';

const STATEMENT_LIMIT = 256;

/**
 * The connection's prepared statements by SQL text, so a repeated query skips parsing and planning. Bounded: the
 * least recently used is finalized. A statement whose run failed is finalized and prepared again next time, since
 * SQLite keeps the failure on it until then.
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: WasmDatabase) {}

  private use<T>(sql: string, fn: (statement: Statement) => T): T {
    let statement = this.statements.get(sql);
    if (statement) {
      this.statements.delete(sql);
    } else {
      statement = this.db.prepare(sql);
      if (this.statements.size >= STATEMENT_LIMIT) {
        const [oldest, evicted] = this.statements.entries().next().value as [string, Statement];
        this.statements.delete(oldest);
        evicted.finalize();
      }
    }
    try {
      const result = fn(statement);
      this.statements.set(sql, statement);
      return result;
    } catch (error) {
      try {
        statement.finalize();
      } catch {
        // finalize reports the failure that is already being thrown
      }
      throw error;
    }
  }

  /** Every row; the statement runs to completion, so it holds no read open afterwards. */
  all(sql: string, params?: Params): Row[] {
    return this.use(sql, (statement) => statement.all(params) as Row[]);
  }

  run(sql: string, params?: Params): number {
    return this.use(sql, (statement) => statement.run(params).changes);
  }

  /** Finalizes every statement: the connection closes only once none is left. */
  clear(): void {
    for (const statement of this.statements.values()) statement.finalize();
    this.statements.clear();
  }
}
