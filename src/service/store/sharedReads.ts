import { readKey } from './readCache';
import type { Params, Row } from './sql';

interface Flight {
  /** Settles when the running query has. */
  settled: Promise<void>;
  /** The run that callers arriving meanwhile share; it starts once this one has settled. */
  next: Promise<Row[]> | null;
}

/**
 * Identical reads (one statement, the same parameters) share queries: a caller arriving while the read is running
 * waits for the next run, never for the one already running, whose snapshot may predate a write the caller has seen
 * committed (on any replica). The next run starts after every caller sharing it arrived, so each gets rows at least
 * as new as its request, as its own query would. Many clients reading the same list or model so cost the database at
 * most two such queries at a time, however many clients there are.
 */
export class SharedReads {
  private readonly flights = new Map<string, Flight>();

  /** The rows of `query` for this statement and these parameters; each caller gets its own row objects. */
  async all(sql: string, params: Params | undefined, query: () => Promise<Row[]>): Promise<Row[]> {
    const key = readKey(sql, params);
    if (key === null) return query();
    const flight = this.flights.get(key);
    if (!flight) return this.launch(key, query);
    flight.next ??= flight.settled.then(() => this.launch(key, query));
    return (await flight.next).map((row) => ({ ...row }));
  }

  private launch(key: string, query: () => Promise<Row[]>): Promise<Row[]> {
    const rows = query();
    const settled = rows.then(
      () => undefined,
      () => undefined,
    );
    const flight: Flight = { settled, next: null };
    this.flights.set(key, flight);
    // Registered before any `next`, so it runs first: a flight nobody joined ends here; a joined one hands over to
    // the run `next` launches.
    void settled.then(() => {
      if (flight.next === null && this.flights.get(key) === flight) this.flights.delete(key);
    });
    return rows;
  }
}
