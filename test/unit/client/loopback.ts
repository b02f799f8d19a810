import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface Loopback {
  url: string;
  port: number;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return sockets;
}

/** A plain HTTP server on 127.0.0.1 answering with `handler`. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Loopback> {
  const server = createServer(handler);
  const sockets = trackSockets(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, close: closer(server, sockets) };
}

export interface ProxyLog {
  method: string;
  target: string;
  authorization: string | undefined;
}

export interface LoopbackProxy extends Loopback {
  log: ProxyLog[];
}

/**
 * A small HTTP proxy on 127.0.0.1: tunnels CONNECT and forwards absolute-URI requests, recording each one. With
 * `credentials` it answers 407 unless the request carries them as Basic proxy authorization. Every tunnel ends on
 * 127.0.0.1 whatever host it names, so tests can use host names that resolve nowhere.
 */
export async function startProxy(credentials?: string): Promise<LoopbackProxy> {
  const log: ProxyLog[] = [];
  const expected = credentials && `Basic ${Buffer.from(credentials).toString('base64')}`;
  const allowed = (authorization: string | undefined) => !expected || authorization === expected;
  const server = createServer((req, res) => {
    const authorization = req.headers['proxy-authorization'];
    log.push({ method: req.method ?? '', target: req.url ?? '', authorization });
    if (!allowed(authorization)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
      return;
    }
    const upstream = httpRequest(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const authorization = req.headers['proxy-authorization'];
    log.push({ method: 'CONNECT', target: req.url ?? '', authorization });
    if (!allowed(authorization)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const port = Number((req.url ?? '').split(':').at(-1));
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const sockets = trackSockets(server);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, log, close: closer(server, sockets) };
}

/** A port on 127.0.0.1 that nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
