import net from 'node:net';
import { listeningPort } from '../../src/kernel/narrow';
import { expectSchema } from '../support/contract';
import { ORDERS, QUOTE } from '../support/order-fixtures';
import { newPartner, type TestPartner } from '../support/partners';
import { useTestServer } from '../support/test-server';
import { expectStatus } from '../support/expect-status';

/**
 * Issue 30, item 18: while PostgreSQL was unreachable every call answered 500 "Internal server
 * error", which reads as a defect. The server here reaches its database through a TCP relay the
 * test cuts: live connections drop, new ones are refused, as in a PostgreSQL restart.
 */
class Relay {
  private readonly sockets = new Set<net.Socket>();
  private listener: net.Server | undefined;
  port = 0;

  constructor(private readonly target: URL) {}

  async open(): Promise<void> {
    const listener = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 5432), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => listener.listen(this.port, '127.0.0.1', resolve));
    this.port = listeningPort(listener);
    this.listener = listener;
  }

  /** The outage: connections cut, the port closed (new connections refused). */
  async cut(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (listener) await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
}

const target = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://localhost/none');
const relay = new Relay(target);
beforeAll(() => relay.open());
afterAll(() => relay.cut());

const { server, client } = useTestServer({
  env: () => {
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(relay.port);
    return { DATABASE_URL: url.toString(), PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' };
  },
});

let partner: TestPartner;
beforeAll(async () => {
  partner = await newPartner(server, client);
});

function expectOutage(response: { status: number; body: unknown; headers: Headers }, path: string): void {
  expectStatus(response, 503);
  expectSchema('ApiError', response.body);
  expect(response.body).toMatchObject({ status: 503, error: 'Service Unavailable', path });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('while the database is unreachable', () => {
  beforeAll(async () => {
    // The server's pool holds live connections when the outage begins.
    const before = await client.op('listTravellers', 'GET', '/api/external/v1/travellers', undefined, {
      token: partner.token,
    });
    if (before.status !== 200) throw new Error(`the server did not work before the outage: ${before.status}`);
    await relay.cut();
  });

  it('then a quote is a 503 in shape 2 with Retry-After, not a 500', async () => {
    const body = {
      nationality: 'Germany',
      ages: [34],
      startDate: '2031-04-01',
      duration: 16,
      routeId: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a6c18',
    };
    expectOutage(await client.op('createQuote', 'POST', QUOTE, body, { token: partner.token }), QUOTE);
  });

  it('then reading an order and listing travellers are 503s too', async () => {
    expectOutage(
      await client.op('getOrder', 'GET', `${ORDERS}/ORD-2030-000142`, undefined, { token: partner.token }),
      `${ORDERS}/ORD-2030-000142`,
    );
    expectOutage(
      await client.op('listTravellers', 'GET', '/api/external/v1/travellers', undefined, { token: partner.token }),
      '/api/external/v1/travellers',
    );
  });

  it('then taking a token is a 503, not a 401 for good credentials', async () => {
    const path = '/api/external/v1/auth/token';
    expectOutage(
      await client.op('issueToken', 'POST', path, { clientId: partner.clientId, clientSecret: partner.clientSecret }),
      path,
    );
  });

  it('then a bearer token the server must look up is a 503, not a 401', async () => {
    expectOutage(
      await client.op('listTravellers', 'GET', '/api/external/v1/travellers', undefined, { token: 'a'.repeat(43) }),
      '/api/external/v1/travellers',
    );
  });

  it('then /readyz says so with its own 503', async () => {
    expectStatus(await client.op('getReadiness', 'GET', '/readyz'), 503);
  });
});
