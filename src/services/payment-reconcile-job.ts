import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentDeps } from './payment-deps';
import { reconcileDueAttempts } from './payment-reconciliation';

/**
 * Runs a reconciliation pass every PAYMENT_RECONCILE_INTERVAL_SECONDS while the server runs.
 * Several server processes may run it at once: each attempt is settled under row locks and a
 * gateway's word is recorded once, so a second process finds nothing left to do.
 */
export class PaymentReconcileJob {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly newEm: () => EntityManager,
    private readonly deps: PaymentDeps,
  ) {}

  start(): void {
    const seconds = this.deps.payments.reconcileIntervalSeconds;
    if (seconds === 0 || this.deps.gateways.size === 0) return;
    this.stopped = false;
    this.schedule(seconds * 1000);
  }

  /** Stops scheduling and waits for a pass in progress, so the pool can close under it. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(ms);
      });
    }, ms);
    this.timer.unref();
  }

  private async pass(): Promise<void> {
    try {
      const summary = await reconcileDueAttempts(this.newEm(), this.deps);
      if (summary.checked > 0) this.deps.logger.info({ summary }, 'payment reconciliation pass');
    } catch (error) {
      this.deps.logger.error({ err: error }, 'payment reconciliation pass failed');
    }
  }
}
