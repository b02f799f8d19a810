import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { ChatError } from '../../../../src/autotrain';
import { ForbiddenAddressError, forbiddenAddressKind, forbiddenHost, publicOnlyLookup, type LookupAll } from '../../../../src/service/textgen/addresses';
import { LlmEndpointPolicy, llmEndpointsFrom } from '../../../../src/service/textgen/policy';
import { FakeLlm } from './fakeLlm';

const post = (policy: LlmEndpointPolicy, url: string, headers: Record<string, string> = {}) =>
  policy.fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}', signal: AbortSignal.timeout(10_000) });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail('the call went through'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ChatError, String(error));
  return error.message;
}

describe('service: addresses text generation may not reach', () => {
  it('names loopback, private, link-local, CGNAT, unspecified, reserved and metadata addresses, and passes public ones', () => {
    const cases: [string, string | undefined][] = [
      ['127.0.0.1', 'a loopback address'],
      ['127.8.9.10', 'a loopback address'],
      ['::1', 'a loopback address'],
      ['::ffff:127.0.0.1', 'a loopback address'],
      ['::ffff:7f00:1', 'a loopback address'],
      ['10.0.0.1', 'a private address'],
      ['172.16.0.1', 'a private address'],
      ['172.31.255.255', 'a private address'],
      ['192.168.1.20', 'a private address'],
      ['fd12:3456::1', 'a private address'],
      ['169.254.169.254', 'a cloud metadata address'],
      ['fd00:ec2::254', 'a cloud metadata address'],
      ['169.254.10.1', 'a link-local address'],
      ['fe80::1', 'a link-local address'],
      ['100.64.0.1', 'a carrier-grade NAT address'],
      ['0.0.0.0', 'an unspecified address'],
      ['::', 'an unspecified address'],
      ['224.0.0.1', 'a reserved address'],
      ['8.8.8.8', undefined],
      ['172.32.0.1', undefined],
      ['100.128.0.1', undefined],
      ['2606:4700:4700::1111', undefined],
    ];
    for (const [address, kind] of cases) assert.equal(forbiddenAddressKind(address), kind, address);
  });

  it('refuses the IPv6 forms that carry an IPv4 address or reach private space, and checks NAT64 by the address it carries', () => {
    const carries = 'an IPv6 address that carries an IPv4 address (IPv4-compatible, SIIT, 6to4, Teredo or local-use NAT64)';
    const cases: [string, string | undefined][] = [
      ['::127.0.0.1', carries],
      ['::7f00:1', carries],
      ['::8.8.8.8', carries],
      ['64:ff9b::a9fe:a9fe', 'a NAT64 address of 169.254.169.254 (a cloud metadata address)'],
      ['64:ff9b::169.254.169.254', 'a NAT64 address of 169.254.169.254 (a cloud metadata address)'],
      ['64:ff9b::7f00:1', 'a NAT64 address of 127.0.0.1 (a loopback address)'],
      ['64:ff9b::a00:1', 'a NAT64 address of 10.0.0.1 (a private address)'],
      ['64:ff9b::808:808', undefined],
      ['64:ff9b:1::a00:1', carries],
      ['64:ff9b:1:ffff::808:808', carries],
      ['2002:a9fe:a9fe::1', carries],
      ['2002:808:808::1', carries],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', carries],
      ['2001::1', carries],
      ['::ffff:0:0', 'an unspecified address'],
      ['::ffff:0:7f00:1', carries],
      ['::ffff:0:127.0.0.1', carries],
      ['::ffff:0:808:808', carries],
      ['fec0::1', 'a site-local address'],
      ['feff:ffff::1', 'a site-local address'],
      ['2001:db8::1', undefined],
      ['2001:4860:4860::8888', undefined],
      ['2003::1', undefined],
    ];
    for (const [address, kind] of cases) assert.equal(forbiddenAddressKind(address), kind, address);
    assert.equal(forbiddenHost(new URL('http://[::127.0.0.1]:8080/v1')), `is ${carries}`);
    assert.equal(forbiddenHost(new URL('http://[64:ff9b::a9fe:a9fe]/latest/meta-data')), 'is a NAT64 address of 169.254.169.254 (a cloud metadata address)');
  });

  it('refuses a name when any address of its DNS answer is forbidden, in whatever order they come', async () => {
    const answer = (addresses: string[]): LookupAll => (_name, _options, callback) => callback(null, addresses.map((address) => ({ address, family: isIP(address) })));
    const resolved = (resolve: LookupAll) =>
      new Promise<unknown>((done) => publicOnlyLookup(resolve)('llm.example.com', { all: true }, (error, addresses) => done(error ?? addresses)));
    for (const [addresses, problem] of [
      [['93.184.216.34', '10.0.0.7'], 'resolves to 10.0.0.7, a private address'],
      [['169.254.169.254', '93.184.216.34'], 'resolves to 169.254.169.254, a cloud metadata address'],
      [['2606:4700::1', '64:ff9b::7f00:1'], 'resolves to 64:ff9b::7f00:1, a NAT64 address of 127.0.0.1 (a loopback address)'],
      [['93.184.216.34', '::127.0.0.1'], /^resolves to ::127\.0\.0\.1, an IPv6 address that carries an IPv4 address/],
    ] as const) {
      const error = await resolved(answer([...addresses]));
      assert.ok(error instanceof ForbiddenAddressError, `${addresses.join(', ')}: ${JSON.stringify(error)}`);
      if (typeof problem === 'string') assert.equal(error.problem, problem);
      else assert.match(error.problem, problem);
    }
    assert.deepEqual(await resolved(answer(['93.184.216.34', '2606:4700::1'])), [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
  });

  it('reads the host of a URL as the service would connect to it: IP literals in any spelling, metadata names', () => {
    assert.equal(forbiddenHost(new URL('http://2130706433/v1')), 'is a loopback address');
    assert.equal(forbiddenHost(new URL('http://0x0a.1/v1')), 'is a private address');
    assert.equal(forbiddenHost(new URL('http://[::ffff:169.254.169.254]/')), 'is a cloud metadata address');
    assert.equal(forbiddenHost(new URL('http://METADATA.google.internal./computeMetadata/v1/')), 'is the name of a cloud metadata service');
    assert.equal(forbiddenHost(new URL('https://api.openai.com/v1')), undefined);
    assert.equal(forbiddenHost(new URL('http://localhost:11434/v1')), undefined, 'a name is checked once resolved');
  });
});

describe('service: the text-generation endpoint policy', function () {
  this.timeout(30_000);
  const allowed = new FakeLlm();
  const other = new FakeLlm();
  let teamServer: LlmEndpointPolicy;

  before(async () => {
    await Promise.all([allowed.start(), other.start()]);
    teamServer = new LlmEndpointPolicy({ allowed: [allowed.url()], callerEndpoints: false });
  });
  beforeEach(() => {
    allowed.requests.length = 0;
    other.requests.length = 0;
    allowed.reply = 'goals';
    other.reply = 'goals';
  });
  after(() => Promise.all([allowed.stop(), other.stop()]));

  it('reads the allowed endpoints from --llm-endpoint, else the environment, and refuses what is not an http(s) URL', () => {
    assert.deepEqual(llmEndpointsFrom(['https://llm.example.com/v1'], 'http://ignored/v1'), ['https://llm.example.com/v1']);
    assert.deepEqual(llmEndpointsFrom(undefined, ' http://10.0.0.5:11434/v1, https://b.example/ '), ['http://10.0.0.5:11434/v1', 'https://b.example/']);
    assert.deepEqual(llmEndpointsFrom(undefined, undefined), []);
    assert.throws(() => llmEndpointsFrom(['ftp://llm.example.com'], undefined), /"ftp:\/\/llm\.example\.com" is not an http:\/\/ or https:\/\/ URL/);
  });

  it('allows the URLs under an allowed endpoint only: same scheme, host and port, the path at or below', () => {
    const policy = new LlmEndpointPolicy({ allowed: ['http://10.0.0.5:11434/v1/', 'https://acme.openai.azure.com'], callerEndpoints: false });
    assert.ok(policy.allows(new URL('http://10.0.0.5:11434/v1')));
    assert.ok(policy.allows(new URL('http://10.0.0.5:11434/v1/chat/completions')));
    assert.ok(policy.allows(new URL('https://acme.openai.azure.com/openai/deployments/d/chat/completions?api-version=1')));
    assert.ok(!policy.allows(new URL('http://10.0.0.5:11434/v10/chat/completions')));
    assert.ok(!policy.allows(new URL('http://10.0.0.5:11435/v1')));
    assert.ok(!policy.allows(new URL('https://10.0.0.5:11434/v1')));
    assert.ok(!policy.allows(new URL('http://10.0.0.5:11434/v1/../admin')), 'dot segments are resolved first');
  });

  it('calls an allowed endpoint at a loopback address', async () => {
    const response = await post(teamServer, `${allowed.url()}/chat/completions`);
    assert.equal(response.status, 200);
    assert.ok(Array.isArray(((await response.json()) as { choices: unknown[] }).choices));
    assert.equal(allowed.requests.length, 1);
  });

  it('refuses any other loopback, private or metadata destination before sending anything', async () => {
    assert.match(await refusal(post(teamServer, `${other.url()}/chat/completions`)), new RegExp(`endpoint 127\\.0\\.0\\.1:${other.port} is a loopback address; .*--llm-endpoint`));
    assert.match(await refusal(post(teamServer, 'http://10.0.0.1/v1/chat/completions')), /10\.0\.0\.1 is a private address/);
    assert.match(await refusal(post(teamServer, 'http://169.254.169.254/latest/meta-data')), /169\.254\.169\.254 is a cloud metadata address/);
    assert.match(await refusal(post(teamServer, 'http://metadata.google.internal/computeMetadata/v1/')), /the name of a cloud metadata service/);
    assert.equal(other.requests.length, 0);
  });

  it('checks a host name after resolving it: localhost is refused, and the server behind it gets no request', async () => {
    const message = await refusal(post(teamServer, `${other.url('localhost')}/chat/completions`));
    assert.match(message, new RegExp(`endpoint localhost:${other.port} resolves to (127\\.0\\.0\\.1|::1), a loopback address`));
    assert.equal(other.requests.length, 0);
  });

  it('checks every redirect: an allowed endpoint sending the call to a forbidden address is refused', async () => {
    for (const target of [other.url(), other.url('localhost'), 'http://169.254.169.254/v1']) {
      allowed.reply = { redirect: `${target}/chat/completions` };
      const message = await refusal(post(teamServer, `${allowed.url()}/chat/completions`));
      assert.match(message, new RegExp(`endpoint 127\\.0\\.0\\.1:${allowed.port} redirected to .*, which (is|resolves to)`));
    }
    assert.equal(other.requests.length, 0);
    allowed.reply = { redirect: 'file:///etc/passwd' };
    assert.match(await refusal(post(teamServer, `${allowed.url()}/chat/completions`)), /redirected to a file: address, which this service does not follow/);
    allowed.reply = { redirect: `${allowed.url()}/chat/completions` };
    assert.match(await refusal(post(teamServer, `${allowed.url()}/chat/completions`)), /redirected more than 5 times/);
  });

  it('checks a redirect to a name whose DNS answer mixes public and private addresses, and sends nothing there', async () => {
    const resolve: LookupAll = (name, _options, callback) =>
      callback(null, name === 'mixed.example' ? [{ address: '127.0.0.1', family: 4 }, { address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const policy = new LlmEndpointPolicy({ allowed: [allowed.url()], callerEndpoints: false, resolve });
    allowed.reply = { redirect: `http://mixed.example:${other.port}/v1/chat/completions` };
    const message = await refusal(post(policy, `${allowed.url()}/chat/completions`));
    assert.match(message, new RegExp(`redirected to mixed\\.example:${other.port}, which resolves to 127\\.0\\.0\\.1, a loopback address`));
    assert.equal(other.requests.length, 0);
  });

  it('refuses each IPv6 form of a forbidden address, as the first destination and on a redirect', async () => {
    for (const host of ['[::127.0.0.1]', '[64:ff9b::7f00:1]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b:1::a00:1]', '[2002:7f00:1::1]', '[2001::7f00:1]', '[::ffff:0:127.0.0.1]', '[fec0::1]']) {
      assert.match(await refusal(post(teamServer, `http://${host}:${other.port}/v1/chat/completions`)), /is (an IPv6 address that carries|a NAT64 address of|a site-local)/, host);
      allowed.reply = { redirect: `http://${host}:${other.port}/v1/chat/completions` };
      assert.match(await refusal(post(teamServer, `${allowed.url()}/chat/completions`)), /redirected to .*, which is /, host);
    }
    assert.equal(other.requests.length, 0);
  });

  it('follows a redirect to an allowed place with the same request, and keeps the key from another host', async () => {
    const both = new LlmEndpointPolicy({ allowed: [allowed.url(), other.url()], callerEndpoints: false });
    allowed.reply = { redirect: `${other.url()}/chat/completions`, status: 301 };
    const response = await post(both, `${allowed.url()}/chat/completions`, { authorization: 'Bearer sk-caller' });
    assert.equal(response.status, 200);
    assert.equal(allowed.requests[0].headers.authorization, 'Bearer sk-caller');
    assert.equal(other.requests.length, 1);
    assert.equal(other.requests[0].path, '/v1/chat/completions');
    assert.equal(other.requests[0].headers.authorization, undefined, 'the key is not sent to the host the redirect named');
  });

  it('on the local service calls whatever the caller names, redirects included', async () => {
    const local = new LlmEndpointPolicy({ allowed: [], callerEndpoints: true });
    allowed.reply = { redirect: `${other.url('localhost')}/chat/completions` };
    const response = await post(local, `${allowed.url()}/chat/completions`);
    assert.equal(response.status, 200);
    assert.equal(other.requests.length, 1);
  });
});
