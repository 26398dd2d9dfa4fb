export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
}

/**
 * Holds one bearer token and renews it shortly before it expires (the contract: the token is opaque,
 * so its lifetime is known only from `expiresIn`). Concurrent callers share one token request.
 */
export class TokenCache {
  private token?: { value: string; renewAt: number };
  private pending?: Promise<string>;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly refreshBeforeSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return this.token.value;
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /**
   * After a 401 (the Retries table of the contract): drop the token that was refused. A token another request already
   * replaced is kept, so a burst of 401s costs one new token, not one each.
   */
  discard(refused: string): void {
    if (this.token?.value === refused) this.token = undefined;
  }

  private async fetch(): Promise<string> {
    const issued = await this.issue();
    // Renew `refreshBeforeSeconds` early, but never sooner than half-way through a short lifetime.
    const margin = Math.min(this.refreshBeforeSeconds, issued.expiresIn / 2);
    this.token = { value: issued.accessToken, renewAt: this.now() + (issued.expiresIn - margin) * 1000 };
    return issued.accessToken;
  }
}
