import { randomUUID } from 'node:crypto';
import { expectContract, expectSchema } from '../../support/contract';
import { ROUTES } from '../../support/catalogue-fixtures';
import { departure, ORDERS, QUOTE } from '../../support/order-fixtures';
import { APPROVE_CARD, CALLBACK, payPath } from '../../support/payment-fixtures';
import { at } from '../../support/elements';
import type { WireJson } from '../../support/http-client';

/** How long a simulated partner waits for any answer; longer is a hang, which the run must never see. */
export const CLIENT_TIMEOUT_MS = 10_000;

export interface LoadPartner {
  clientId: string;
  clientSecret: string;
  touristId: string;
}

export type Phase = string;

/** What the service acknowledged (2xx): each must be in the database afterwards, in this state. */
export interface Acknowledged {
  /** orderRef -> PENDING when created, PAID once a callback was answered with "Payment received". */
  orders: Map<string, 'PENDING' | 'PAID'>;
  /** paymentRef -> orderRef of the attempt POST /pay answered with. */
  payments: Map<string, string>;
  /** paymentRef of the attempts whose success callback was acknowledged. */
  successes: Set<string>;
}

export interface Failure {
  phase: Phase;
  step: string;
  target: number;
  kind: 'connection' | 'timeout' | 'server-error' | 'refused' | 'off-contract';
  status?: number;
  detail: string;
}

export interface PhaseStats {
  requests: number;
  ok: number;
  flows: number;
  failures: Record<Failure['kind'], number>;
}

class StepFailed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.detail);
  }
}

/** Words of SQL, PostgreSQL, the driver and the ORM, and stack frames: never in a body. */
const INTERNALS =
  /\b(select|insert|update|relation|constraint|postgres|knex|mikro|ECONNREFUSED)\b|\bat \S+ \(|\.(ts|js):\d+|node_modules/i;

const emptyFailures = (): PhaseStats['failures'] => ({
  connection: 0,
  timeout: 0,
  'server-error': 0,
  refused: 0,
  'off-contract': 0,
});

/**
 * Simulated partners running the booking-and-pay flow in a loop against a set of server
 * processes (each call to a random one, as behind a load balancer without retries): token,
 * quote, order, pay, hosted checkout submit, callback. A failed step ends the flow and the
 * partner starts over. Every answer is classified and checked against the contract; every
 * acknowledged write is remembered.
 */
export class BookingLoad {
  readonly acknowledged: Acknowledged = { orders: new Map(), payments: new Map(), successes: new Set() };
  readonly stats = new Map<Phase, PhaseStats>();
  readonly failures: Failure[] = [];
  phase: Phase = 'steady';
  private running = false;
  private readonly completed = new Map<string, number>();
  private workers: Promise<void>[] = [];

  constructor(
    private readonly urls: () => string[],
    private readonly partners: LoadPartner[],
  ) {}

  /**
   * One flow per partner, one after the other, before the load: a cold process compiles its
   * validators and fills its pool on first use, which under a burst would look like a hang.
   */
  async prime(): Promise<void> {
    for (const partner of this.partners) await this.flow(partner);
  }

  start(): void {
    this.running = true;
    this.workers = this.partners.map((partner) => this.loop(partner));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  totals(): PhaseStats {
    const total: PhaseStats = { requests: 0, ok: 0, flows: 0, failures: emptyFailures() };
    for (const s of this.stats.values()) {
      total.requests += s.requests;
      total.ok += s.ok;
      total.flows += s.flows;
      for (const kind of Object.keys(s.failures) as Failure['kind'][]) total.failures[kind] += s.failures[kind];
    }
    return total;
  }

  /** Stats of a phase; a request and its success count in the phase it was sent in. */
  private statsOf(phase: Phase): PhaseStats {
    let s = this.stats.get(phase);
    if (!s) this.stats.set(phase, (s = { requests: 0, ok: 0, flows: 0, failures: emptyFailures() }));
    return s;
  }

  /** Resolves once every simulated partner has completed `count` flows (JIT, pools and caches warm). */
  async warmedUp(count = 1): Promise<void> {
    while (this.completed.size < this.partners.length || Math.min(...this.completed.values()) < count)
      await new Promise((resolve) => setTimeout(resolve, 100));
  }

  private async loop(partner: LoadPartner): Promise<void> {
    while (this.running) {
      try {
        await this.flow(partner);
        this.statsOf(this.phase).flows += 1;
        this.completed.set(partner.clientId, (this.completed.get(partner.clientId) ?? 0) + 1);
      } catch (error) {
        if (!(error instanceof StepFailed)) throw error;
        this.failures.push(error.failure);
        this.statsOf(error.failure.phase).failures[error.failure.kind] += 1;
        // Back off a little so a dead process or database is not hammered in a tight loop.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  private async flow(partner: LoadPartner): Promise<void> {
    const token = (
      await this.api(
        'issueToken',
        'POST',
        '/api/external/v1/auth/token',
        { clientId: partner.clientId, clientSecret: partner.clientSecret },
        [200],
      )
    ).data.accessToken as string;
    const quote = (
      await this.api(
        'createQuote',
        'POST',
        QUOTE,
        { nationality: 'Germany', ages: [34], startDate: departure, duration: 16, routeId: ROUTES.everestBaseCamp },
        [200],
        token,
      )
    ).data;
    const order = (
      await this.api(
        'createOrders',
        'POST',
        ORDERS,
        {
          touristId: partner.touristId,
          ctgId: quote.ctgId,
          routeId: quote.routeId,
          departureDate: quote.startDate,
          quoteId: quote.quoteId,
        },
        [201],
        token,
      )
    ).data;
    this.acknowledged.orders.set(order.orderRef, 'PENDING');
    const payment = (
      await this.api('payOrder', 'POST', payPath(order.orderRef), { gateway: 'card_gateway' }, [200], token, {
        'idempotency-key': randomUUID(),
      })
    ).data;
    this.acknowledged.payments.set(payment.paymentRef, order.orderRef);
    const callbackUrl = await this.submitCheckout(payment.paymentUrl);
    const page = await this.api('handlePaymentCallback', 'GET', `${CALLBACK}${callbackUrl.search}`, undefined, [200]);
    if (typeof page !== 'string' || !page.includes('Payment received'))
      throw this.fail('callback', -1, 'off-contract', 200, `unexpected result page: ${String(page).slice(0, 200)}`);
    this.acknowledged.orders.set(order.orderRef, 'PAID');
    this.acknowledged.successes.add(payment.paymentRef);
  }

  private target(): { index: number; url: string } {
    const urls = this.urls();
    const index = Math.floor(Math.random() * urls.length);
    return { index, url: at(urls, index, 'the fleet') };
  }

  /** A failure counts in the phase it happened in (a request cut by a kill fails in the kill phase). */
  private fail(
    step: string,
    target: number,
    kind: Failure['kind'],
    status: number | undefined,
    detail: string,
  ): StepFailed {
    return new StepFailed({ phase: this.phase, step, target, kind, status, detail: detail.slice(0, 500) });
  }

  private async send(
    phase: Phase,
    step: string,
    target: number,
    url: string,
    init: RequestInit,
  ): Promise<{ status: number; text: string; headers: Headers }> {
    this.statsOf(phase).requests += 1;
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
      return { status: response.status, text: await response.text(), headers: response.headers };
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw this.fail(step, target, 'timeout', undefined, `no answer within ${CLIENT_TIMEOUT_MS} ms`);
      throw this.fail(
        step,
        target,
        'connection',
        undefined,
        String((error as Error & { cause?: unknown }).cause ?? error),
      );
    }
  }

  /** An error answer must be one of the contract's shapes; a 5xx must be a 500 or 503 in shape 2 (ApiError). */
  private async classifyError(
    step: string,
    target: number,
    status: number,
    body: unknown,
    operationId?: string,
  ): Promise<StepFailed> {
    try {
      if (operationId) await expectContract(operationId, status, body);
      if (status >= 500) {
        if (status !== 500 && status !== 503) throw new Error(`status ${status}`);
        expectSchema('ApiError', body);
        if (INTERNALS.test(JSON.stringify(body))) throw new Error('the body shows SQL, driver or stack text');
      }
    } catch (error) {
      return this.fail(step, target, 'off-contract', status, `${(error as Error).message}`);
    }
    return this.fail(step, target, status >= 500 ? 'server-error' : 'refused', status, JSON.stringify(body));
  }

  private async api(
    operationId: string,
    method: string,
    path: string,
    body: unknown,
    expected: number[],
    token?: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<WireJson> {
    const phase = this.phase;
    const { index, url } = this.target();
    const headers: Record<string, string> = { ...extraHeaders };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await this.send(phase, operationId, index, new URL(path, url).toString(), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let parsed: unknown = answer.text;
    if ((answer.headers.get('content-type') ?? '').includes('json')) {
      try {
        parsed = JSON.parse(answer.text);
      } catch {
        throw this.fail(operationId, index, 'off-contract', answer.status, `not JSON: ${answer.text}`);
      }
    }
    if (!expected.includes(answer.status))
      throw await this.classifyError(operationId, index, answer.status, parsed, operationId);
    try {
      await expectContract(operationId, answer.status, parsed);
    } catch (error) {
      throw this.fail(operationId, index, 'off-contract', answer.status, (error as Error).message);
    }
    this.statsOf(phase).ok += 1;
    return parsed;
  }

  /** The customer's browser posting the hosted card form; the gateway answers 303 to the signed callback. */
  private async submitCheckout(paymentUrl: string): Promise<URL> {
    // The page lives on the process that started the payment: a restarted process keeps its port.
    const phase = this.phase;
    const target = this.urls().findIndex((url) => paymentUrl.startsWith(url));
    const answer = await this.send(phase, 'checkoutSubmit', target, paymentUrl, {
      method: 'POST',
      body: new URLSearchParams(APPROVE_CARD),
    });
    const location = answer.headers.get('location');
    if (answer.status === 303 && location) {
      this.statsOf(phase).ok += 1;
      return new URL(location);
    }
    let parsed: unknown = answer.text;
    if ((answer.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(answer.text);
    if (answer.status >= 500) throw await this.classifyError('checkoutSubmit', target, answer.status, parsed);
    throw this.fail('checkoutSubmit', target, 'refused', answer.status, answer.text);
  }
}
