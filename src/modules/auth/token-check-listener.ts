import { Client, type Notification } from 'pg';
import type { Logger } from '../../kernel/logging/logger';
import type { TokenCheckCache, TokenCheckChange } from './token-check-cache';

/**
 * The channel the database's triggers NOTIFY (migration TokenCheckNotify) in the transaction of
 * every change that can end a token: a token revoked or deleted, a credential revoked or deleted,
 * a company changed or deleted. Payloads: `token:<sha256 hex>`, `credential:<id>`, `company:<id>`.
 */
export const TOKEN_CHECK_CHANNEL = 'token_check_changed';

/** How the listening connection names itself in pg_stat_activity. */
export const TOKEN_CHECK_LISTENER_NAME = 'pbs-token-check-listener';

export interface TokenCheckListenerOptions {
  /** First reconnect delay; it doubles up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How often the listening connection is asked `select 1`; no answer within the interval counts as lost. */
  pingIntervalMs?: number;
  /** application_name of the connection (pg_stat_activity). */
  applicationName?: string;
}

export interface TokenCheckListener {
  close(): Promise<void>;
}

/** Reads a notification's payload; anything unknown empties the whole cache, the safe answer. */
export function changeOf(payload: string | undefined): TokenCheckChange | undefined {
  const [kind, value] = (payload ?? '').split(':', 2);
  if (!value) return undefined;
  if (kind === 'token') return { kind, tokenHash: value };
  if (kind === 'credential' || kind === 'company') return { kind, id: value };
  return undefined;
}

/**
 * One dedicated connection LISTENing on TOKEN_CHECK_CHANNEL for `cache`. The cache is used only
 * while that LISTEN holds: when the connection ends, errs or stops answering its ping, the cache
 * is emptied and bypassed, and the listener reconnects with backoff; once LISTEN is back, the
 * cache is used again (empty).
 */
export function listenForTokenCheckChanges(
  databaseUrl: string,
  cache: TokenCheckCache,
  logger: Logger,
  options: TokenCheckListenerOptions = {},
): TokenCheckListener {
  const listener = new ChangeListener(databaseUrl, cache, logger, options);
  listener.connect();
  return { close: () => listener.close() };
}

class ChangeListener {
  private closed = false;
  private delay: number;
  private client: Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly pingIntervalMs: number;
  private readonly applicationName: string;

  constructor(
    private readonly databaseUrl: string,
    private readonly cache: TokenCheckCache,
    private readonly logger: Logger,
    {
      backoffMs = 100,
      maxBackoffMs = 5000,
      pingIntervalMs = 5000,
      applicationName = TOKEN_CHECK_LISTENER_NAME,
    }: TokenCheckListenerOptions,
  ) {
    this.applicationName = applicationName;
    this.backoffMs = backoffMs;
    this.maxBackoffMs = maxBackoffMs;
    this.pingIntervalMs = pingIntervalMs;
    this.delay = backoffMs;
  }

  connect(): void {
    this.retry = undefined;
    const current = new Client({
      connectionString: this.databaseUrl,
      keepAlive: true,
      application_name: this.applicationName,
    });
    this.client = current;
    current.on('error', (error) => this.lost(current, error));
    current.on('end', () => this.lost(current));
    current.on('notification', (message: Notification) => {
      const change = changeOf(message.payload);
      if (change) this.cache.drop(change);
      else this.cache.dropAll();
    });
    current
      .connect()
      .then(() => current.query(`listen ${TOKEN_CHECK_CHANNEL}`))
      .then(() => {
        if (this.client !== current) return;
        this.delay = this.backoffMs;
        this.cache.startListening();
        this.ping(current);
      })
      .catch((error: unknown) => this.lost(current, error));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const current = this.client;
    this.client = undefined;
    this.cache.stopListening();
    await current?.end().catch(() => undefined);
  }

  /** The connection is gone (or no longer trusted): empty and bypass the cache, then reconnect. */
  private lost(current: Client, error?: unknown): void {
    if (this.client !== current) return;
    this.client = undefined;
    this.cache.stopListening();
    current.end().catch(() => undefined);
    if (this.closed) return;
    this.logger.warn(
      { err: error, retryInMs: this.delay },
      'token check listener lost its connection; bearer checks go to the database until it is back',
    );
    this.retry = setTimeout(() => this.connect(), this.delay);
    this.retry.unref();
    this.delay = Math.min(this.delay * 2, this.maxBackoffMs);
  }

  /** A half-open TCP connection would deliver nothing without failing: ask it something now and then. */
  private ping(current: Client): void {
    setTimeout(() => {
      if (this.client !== current) return;
      const unanswered = setTimeout(
        () => this.lost(current, new Error('token check listener did not answer its ping')),
        this.pingIntervalMs,
      );
      unanswered.unref();
      current.query('select 1').then(
        () => {
          clearTimeout(unanswered);
          this.ping(current);
        },
        (error: unknown) => {
          clearTimeout(unanswered);
          this.lost(current, error);
        },
      );
    }, this.pingIntervalMs).unref();
  }
}
