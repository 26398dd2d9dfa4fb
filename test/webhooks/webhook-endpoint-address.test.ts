import net, { type AddressInfo } from 'node:net';
import { connectionFailureCategory } from '../../src/modules/webhooks/rules/connection-failure';
import { endpointUrlProblem, isPublicAddress } from '../../src/modules/webhooks/rules/endpoint-address';
import { signedHeaders, newWebhookSecret } from '../../src/modules/webhooks/rules/signature';
import { assertEndpointAllowed } from '../../src/modules/webhooks/endpoint-registry';
import { createWebhookSender } from '../../src/modules/webhooks/sender';
import { Webhook } from 'standardwebhooks';

describe('webhook endpoint addresses (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '168.63.129.16',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
  ])('refuses the internal address %s', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('accepts the public address %s', (address) =>
    expect(isPublicAddress(address)).toBe(true),
  );

  // Issue 30 item 8: IPv6 forms that reach an internal IPv4 address, and deprecated local ranges.
  it.each([
    '::7f00:1', // IPv4-compatible ::127.0.0.1 (all of ::/96 is refused)
    '::8.8.8.8', // IPv4-compatible, deprecated: refused whatever it carries
    '::ffff:0:7f00:1', // IPv4-translated ::ffff:0:127.0.0.1
    '::ffff:0:10.0.0.1',
    '::ffff:7f00:1', // IPv4-mapped, written in hex
    '::FFFF:169.254.169.254',
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
    '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
    '64:ff9b::192.168.0.1',
    '64:ff9b:1::808:808', // local-use NAT64
    '2001:0:7f00:1::', // Teredo whose server is 127.0.0.1
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo whose client is 127.0.0.1 (inverted)
    'fec0::1', // site-local, deprecated
    'feff::1',
    'fe80::1%eth0',
  ])('refuses the IPv6 form %s of an internal or local address', (address) =>
    expect(isPublicAddress(address)).toBe(false),
  );
  it.each(['::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2001:0:808:808::f7f7:f7f7'])(
    'accepts the IPv6 form %s of a public IPv4 address',
    (address) => expect(isPublicAddress(address)).toBe(true),
  );
  it.each(['https://[::7f00:1]/x', 'https://[::ffff:0:7f00:1]/x', 'https://[2002:7f00:1::]/x', 'https://[fec0::1]/x'])(
    'refuses the endpoint %s at registration',
    (url) => expect(endpointUrlProblem(url, false)).toMatch(/loopback/),
  );

  it('outside sandbox: only HTTPS, no credentials, no internal literal or localhost name', () => {
    expect(endpointUrlProblem('http://hooks.example.com/x', false)).toBe('must be HTTPS');
    expect(endpointUrlProblem('https://user:pw@hooks.example.com/x', false)).toBe('must not carry credentials');
    expect(endpointUrlProblem('https://127.0.0.1/x', false)).toMatch(/loopback/);
    expect(endpointUrlProblem('https://[::1]/x', false)).toMatch(/loopback/);
    expect(endpointUrlProblem('https://localhost/x', false)).toMatch(/loopback/);
    expect(endpointUrlProblem('https://hooks.example.com/x', false)).toBeUndefined();
    expect(endpointUrlProblem('http://127.0.0.1:9999/x', true)).toBeUndefined();
  });

  it('refuses at registration a URL that is not HTTPS or whose host does not resolve', async () => {
    await expect(
      assertEndpointAllowed('https://localhost.localdomain.invalid/x', { allowLocalEndpoints: false }),
    ).rejects.toThrow(/does not resolve/);
    await expect(assertEndpointAllowed('http://hooks.example.com/x', { allowLocalEndpoints: false })).rejects.toThrow(
      /HTTPS/,
    );
  });

  it('refuses at delivery time when the name resolves to loopback now (DNS rebinding): no request is made', async () => {
    const sender = createWebhookSender({ timeoutMs: 2000, allowLocal: false });
    // The sender checks the addresses it is about to connect to, whatever the name looked like when registered.
    const result = await sender.post('https://localhost/hooks', {}, '{}');
    sender.close();
    expect(result.refused).toBe(true);
    expect(result.status).toBeUndefined();
  });
});

describe('what the delivery log says of a connection that failed', () => {
  it('names the category, never the address: a refused connection to a private address reads "connection refused"', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const sender = createWebhookSender({ timeoutMs: 2000, allowLocal: true });
    const result = await sender.post(`http://127.0.0.1:${port}/hooks`, {}, '{}');
    sender.close();
    expect(result).toEqual(expect.objectContaining({ error: 'connection refused', refused: false }));
    expect(result.status).toBeUndefined();
  });

  it('maps error codes to categories', () => {
    expect(
      [
        'ECONNREFUSED',
        'ECONNRESET',
        'ENOTFOUND',
        'EHOSTUNREACH',
        'ETIMEDOUT',
        'ERR_TLS_CERT_ALTNAME_INVALID',
        'DEPTH_ZERO_SELF_SIGNED_CERT',
        'EWHATEVER',
        undefined,
      ].map(connectionFailureCategory),
    ).toEqual([
      'connection refused',
      'connection reset',
      'host name does not resolve',
      'host unreachable',
      'connection timed out',
      'TLS handshake failed',
      'TLS handshake failed',
      'connection failed',
      'connection failed',
    ]);
  });

  it('refuses a name resolving to loopback at delivery time without naming the address', async () => {
    const sender = createWebhookSender({ timeoutMs: 2000, allowLocal: false });
    const result = await sender.post('https://localhost/hooks', {}, '{}');
    sender.close();
    expect(result.error).toBe('endpoint resolves to a loopback, private or link-local address');
  });
});

describe('webhook signatures', () => {
  it('verify with the standardwebhooks library under either secret of a rotation', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test', data: {} });
    const headers = signedHeaders([current, previous], 'evt_1', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow();
  });
});
