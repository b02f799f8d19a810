import { isIP, Socket, type LookupFunction } from 'node:net';
import { ForbiddenAddressError, forbiddenAddressKind } from '../textgen/addresses';

/**
 * Sockets for the `pg` driver that reach only the addresses `lookup` lets through: an IP literal is checked as it is,
 * a host name through `lookup` (which connects to the addresses it checked), and a Unix socket, which is this
 * machine, is refused. A refused connection fails with a ForbiddenAddressError before anything is sent.
 */
export function checkedSockets(lookup: LookupFunction): () => Socket {
  return () => {
    const socket = new Socket();
    const connect = socket.connect.bind(socket) as (options: { port: number; host: string; lookup: LookupFunction }) => Socket;
    // pg calls connect(port, host), or connect(path) for a Unix socket.
    socket.connect = ((port: number | string, host?: string) => {
      const kind = host === undefined ? undefined : isIP(host) ? forbiddenAddressKind(host) : undefined;
      const problem = host === undefined ? `is reached through the Unix socket ${port}, on this machine` : kind && `is ${kind}`;
      if (problem) {
        process.nextTick(() => socket.destroy(new ForbiddenAddressError(problem)));
        return socket;
      }
      return connect({ port: Number(port), host: host as string, lookup });
    }) as Socket['connect'];
    return socket;
  };
}
