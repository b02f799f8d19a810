import { BlockList, isIP } from 'node:net';

/**
 * Addresses a team server never calls on a caller's behalf unless its operator allows the endpoint: they reach the
 * machine itself, its network or its cloud's metadata. The first list an address is in names it; an IPv4-mapped IPv6
 * address (::ffff:a.b.c.d) is checked as its IPv4 address.
 */
const RANGES: readonly [kind: string, subnets: readonly string[]][] = [
  ['a cloud metadata address', ['169.254.169.254/32', '169.254.170.2/32', '100.100.100.200/32', '192.0.0.192/32', 'fd00:ec2::254/128']],
  ['an unspecified address', ['0.0.0.0/8', '::/128']],
  ['a loopback address', ['127.0.0.0/8', '::1/128']],
  ['a private address', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']],
  ['a link-local address', ['169.254.0.0/16', 'fe80::/10']],
  ['a carrier-grade NAT address', ['100.64.0.0/10']],
  ['a reserved address', ['192.0.0.0/24', '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4', 'ff00::/8']],
];

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

/** What kind of forbidden address `address` (an IP address) is, e.g. "a loopback address"; undefined for a public one. */
export function forbiddenAddressKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  return LISTS.find(({ list }) => list.check(address, family === 6 ? 'ipv6' : 'ipv4'))?.kind;
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
