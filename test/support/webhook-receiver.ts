import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { until } from './eventually';
import type { WireJson } from './http-client';

export interface ReceivedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, WireJson>;
}

/**
 * A partner's endpoint on loopback that verifies every delivery with the Standard Webhooks
 * library (not our code) under `secret`, answers 500 to the first `failFirst` deliveries, and
 * keeps the verified events. `verified` holds each delivery; `unique()` deduplicates by id as a
 * partner must.
 */
export class WebhookReceiver {
  readonly verified: ReceivedEvent[] = [];
  rejected = 0;
  answered = 0;
  secret = '';
  failFirst = 0;
  /** When set, the first request is never answered (its sender is about to die) and this is called. */
  holdFirst?: () => void;
  /** Milliseconds from the event's timestamp to its verified arrival, per delivery. */
  readonly lagMs: number[] = [];
  private server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.answered += 1;
      if (this.holdFirst && this.answered === 1) {
        this.holdFirst();
        return;
      }
      if (this.answered <= this.failFirst) {
        response.writeHead(500).end('not yet');
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, String(value)]));
        const event = new Webhook(this.secret).verify(body, headers) as ReceivedEvent;
        this.verified.push(event);
        this.lagMs.push(Date.now() - Date.parse(event.timestamp));
        response.writeHead(204).end();
      } catch {
        this.rejected += 1;
        response.writeHead(400).end('bad signature');
      }
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    // Tests stop their receiver at their end: one that fails before that must not keep jest from exiting.
    this.server.unref();
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  unique(type?: string): ReceivedEvent[] {
    const seen = new Map<string, ReceivedEvent>();
    for (const event of this.verified) if (!type || event.type === type) seen.set(event.id, event);
    return [...seen.values()];
  }

  async waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
    await until(
      () => `the webhook receiver's condition (verified ${this.verified.length}, rejected ${this.rejected})`,
      predicate,
      { timeoutMs, intervalMs: 100 },
    );
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
