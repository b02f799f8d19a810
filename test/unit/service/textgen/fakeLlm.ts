import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers: goals a summary of `smallCsv` accepts, a 500 with a body, or a redirect to `location`. */
export type FakeReply = 'goals' | 'error' | { redirect: string; status?: number };

/** A body the service must never repeat to its caller. */
export const UPSTREAM_SECRET = 'internal-upstream-detail-7f3a';

const GOALS = { goals: [{ question: 'How is x spread?', visualization: 'histogram of x', rationale: 'x alone', columns: ['x'] }] };

/** A chat-completions endpoint on 127.0.0.1 that records every request (path and headers). */
export class FakeLlm {
  readonly requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  reply: FakeReply = 'goals';
  private readonly server: Server = createServer((req, res) => {
    this.requests.push({ path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      const reply = this.reply;
      if (reply === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: UPSTREAM_SECRET }));
      } else if (reply === 'goals') {
        const body = { choices: [{ message: { role: 'assistant', content: JSON.stringify(GOALS) } }] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      } else {
        res.writeHead(reply.status ?? 307, { location: reply.redirect }).end();
      }
    });
  });
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The base URL of the endpoint on `host` (127.0.0.1 by default; `localhost` names the same server). */
  url(host = '127.0.0.1'): string {
    return `http://${host}:${this.port}/v1`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
