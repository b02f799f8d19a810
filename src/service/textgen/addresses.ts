import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Addresses a team server never calls on a caller's behalf unless its operator allows the endpoint: they reach the
 * machine itself, its network or its cloud's metadata. The first list an address is in names it; an IPv4-mapped IPv6
 * address (::ffff:a.b.c.d) is checked as its IPv4 address, and a NAT64 one (64:ff9b::a.b.c.d) as the IPv4 address it
 * carries. The other IPv6 forms that carry an IPv4 address are refused whatever it is: IPv4-compatible (::a.b.c.d)
 * and SIIT (::ffff:0:a.b.c.d) addresses are deprecated or translator-internal, 6to4 (2002::/16) and Teredo
 * (2001::/32) reach the embedded address through relays nobody here controls, and local-use NAT64 (64:ff9b:1::/48)
 * embeds it where the network's operator chose; a public service has an address of its own besides.
 */
const RANGES: readonly [kind: string, subnets: readonly string[]][] = [
  ['a cloud metadata address', ['169.254.169.254/32', '169.254.170.2/32', '100.100.100.200/32', '192.0.0.192/32', 'fd00:ec2::254/128']],
  ['an unspecified address', ['0.0.0.0/8', '::/128']],
  ['a loopback address', ['127.0.0.0/8', '::1/128']],
  ['a private address', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']],
  ['a link-local address', ['169.254.0.0/16', 'fe80::/10']],
  ['a carrier-grade NAT address', ['100.64.0.0/10']],
  ['a reserved address', ['192.0.0.0/24', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4', 'ff00::/8']],
  ['a site-local address', ['fec0::/10']],
  ['an IPv6 address that carries an IPv4 address (IPv4-compatible, SIIT, 6to4, Teredo or local-use NAT64)', ['::/96', '::ffff:0:0:0/96', '2002::/16', '2001::/32', '64:ff9b:1::/48']],
];

/** The well-known NAT64 prefix: its last 32 bits are the IPv4 address a NAT64 gateway reaches. */
const NAT64 = new BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');

const LISTS = RANGES.map(([kind, subnets]) => {
  const list = new BlockList();
  for (const subnet of subnets) {
    const [address, prefix] = subnet.split('/');
    list.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
  return { kind, list };
});

/** Host names of cloud metadata services, refused before any lookup. */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part is its last two). */
function ipv6Groups(address: string): number[] {
  const bare = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare);
  const hex = dotted ? `${bare.slice(0, dotted.index)}${((+dotted[1] << 8) | +dotted[2]).toString(16)}:${((+dotted[3] << 8) | +dotted[4]).toString(16)}` : bare;
  const groups = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = hex.split('::');
  if (tail === undefined) return groups(head);
  const [first, last] = [groups(head), groups(tail)];
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** What kind of forbidden address `address` (an IP address) is, e.g. "a loopback address"; undefined for a public one. */
export function forbiddenAddressKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  const kind = LISTS.find(({ list }) => list.check(address, family === 6 ? 'ipv6' : 'ipv4'))?.kind;
  if (kind || family === 4 || !NAT64.check(address, 'ipv6')) return kind;
  const [high, low] = ipv6Groups(address).slice(6);
  const carried = [high >> 8, high & 255, low >> 8, low & 255].join('.');
  const carriedKind = forbiddenAddressKind(carried);
  return carriedKind && `a NAT64 address of ${carried} (${carriedKind})`;
}

/** A lookup answer with a forbidden address: raised by `publicOnlyLookup`, described by whoever connects. */
export class ForbiddenAddressError extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'ForbiddenAddressError';
  }
}

/** `dns.lookup` with `all: true`, or a stand-in for it. */
export type LookupAll = (hostname: string, options: { all: true; family?: number }, callback: (error: Error | null, addresses: { address: string; family: number }[]) => void) => void;

/**
 * A lookup that resolves a host name and refuses it when any of its addresses is forbidden. A connection is made to
 * the addresses checked here, so a name that resolves differently a moment later (DNS rebinding) changes nothing.
 */
export function publicOnlyLookup(resolve: LookupAll = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0), all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      for (const { address } of addresses) {
        const kind = forbiddenAddressKind(address);
        if (kind) return callback(new ForbiddenAddressError(`resolves to ${address}, ${kind}`), '');
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Why the host of `url` is refused before any lookup (an IP literal of a forbidden range, a metadata name), or undefined. */
export function forbiddenHost(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    const kind = forbiddenAddressKind(host);
    return kind && `is ${kind}`;
  }
  return METADATA_NAMES.has(host.toLowerCase().replace(/\.$/, '')) ? 'is the name of a cloud metadata service' : undefined;
}
