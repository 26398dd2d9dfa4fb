import { endpointUrlProblem, isPublicAddress } from '../../src/modules/webhooks/rules/endpoint-address';
import { signedHeaders, newWebhookSecret } from '../../src/modules/webhooks/rules/signature';
import { assertEndpointAllowed } from '../../src/modules/webhooks/endpoints';
import { createWebhookSender } from '../../src/modules/webhooks/sender';
import { Webhook } from 'standardwebhooks';

describe('webhook endpoint addresses (SSRF)', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1'])(
    'refuses the internal address %s', (address) => expect(isPublicAddress(address)).toBe(false),
  );
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('accepts the public address %s', (address) => expect(isPublicAddress(address)).toBe(true));

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
    await expect(assertEndpointAllowed('https://localhost.localdomain.invalid/x', { allowLocalEndpoints: false })).rejects.toThrow(/does not resolve/);
    await expect(assertEndpointAllowed('http://hooks.example.com/x', { allowLocalEndpoints: false })).rejects.toThrow(/HTTPS/);
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
