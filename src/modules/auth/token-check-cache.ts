import type { Principal } from '../../kernel/http/request-scope';

interface Entry {
  principal: Principal;
  /** The token's own expiry (epoch ms): the entry is never used at or after it. */
  expiresAtMs: number;
}

/** What one lookup in flight remembers, so that its answer is not stored over a change it could not see. */
export interface CheckTicket {
  readonly generation: number;
}

/** A change that can end tokens, as the database announces it (see token-check-listener). */
export type TokenCheckChange =
  { kind: 'token'; tokenHash: string } | { kind: 'credential'; id: string } | { kind: 'company'; id: string };

/**
 * Successful bearer checks, keyed by the token's SHA-256 hash, each kept no longer than the token's
 * own expiry. It answers only while `listening` (its listener holds a LISTEN on the database's
 * change channel): losing the listener empties it and it stays bypassed until the listener is back,
 * so a missed notification can never extend a revoked token's life. Every change and every change
 * of listening state bumps a generation; a check that started under an older generation is not
 * stored (its SELECT may have read the database before the change it was told about).
 */
export class TokenCheckCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private listening = false;

  constructor(private readonly maxEntries = 50_000) {}

  get size(): number {
    return this.entries.size;
  }

  /** Bumped by every change heard and every change of listening state (tests wait on it). */
  get currentGeneration(): number {
    return this.generation;
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** The cached principal of a live token, or undefined (then the caller asks the database). */
  get(tokenHash: string, nowMs = Date.now()): Principal | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= nowMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.principal;
  }

  /** Taken before the database is asked; `set` compares it with the generation at the answer. */
  ticket(): CheckTicket {
    return { generation: this.generation };
  }

  set(ticket: CheckTicket, tokenHash: string, principal: Principal, expiresAtMs: number): void {
    if (!this.listening || ticket.generation !== this.generation) return;
    if (this.entries.size >= this.maxEntries) {
      // The oldest insertion goes first: Map keeps insertion order.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    // Frozen: every request of the token shares this one object.
    this.entries.set(tokenHash, { principal: Object.freeze(principal), expiresAtMs });
  }

  /** Drops every entry the change can end. Credential and company changes are rare: a scan is enough. */
  drop(change: TokenCheckChange): void {
    this.generation += 1;
    if (change.kind === 'token') {
      this.entries.delete(change.tokenHash);
      return;
    }
    for (const [hash, { principal }] of this.entries) {
      const owner = change.kind === 'credential' ? principal.credentialId : principal.companyId;
      if (owner === change.id) this.entries.delete(hash);
    }
  }

  /** A change the listener could not read: everything goes. */
  dropAll(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** The listener holds its LISTEN again: entries may be stored and used from now on. */
  startListening(): void {
    this.generation += 1;
    this.entries.clear();
    this.listening = true;
  }

  /** The listener lost its connection: everything goes, and nothing is used until it is back. */
  stopListening(): void {
    this.generation += 1;
    this.entries.clear();
    this.listening = false;
  }
}
