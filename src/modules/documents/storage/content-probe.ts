import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes bytes through unchanged while counting them, hashing them, and keeping the first few
 * for content sniffing. `inspectHead` sees those first bytes as soon as they have arrived and
 * can stop the stream (by returning an error) before the rest of the file is written anywhere.
 * `keepFor` then says, from those first bytes, how many leading bytes to keep for judging the
 * whole content (`leadingBytes`).
 */
export class ContentProbe extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private headBytes = Buffer.alloc(0);
  private inspected = false;
  private readonly kept: Buffer[] = [];
  private keptLength = 0;
  private keepLimit: number;

  constructor(
    private readonly headLength: number,
    private readonly inspectHead: (head: Buffer) => Error | undefined = () => undefined,
    private readonly keepFor: (head: Buffer) => number = () => headLength,
  ) {
    super();
    this.keepLimit = headLength;
  }

  get head(): Buffer {
    return this.headBytes;
  }

  get leadingBytes(): Buffer {
    return Buffer.concat(this.kept, this.keptLength);
  }

  get sha256(): string {
    return this.hash.copy().digest('hex');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    this.hash.update(chunk);
    if (this.headBytes.length < this.headLength) {
      this.headBytes = Buffer.concat([this.headBytes, chunk.subarray(0, this.headLength - this.headBytes.length)]);
    }
    if (!this.inspected && this.headBytes.length >= this.headLength) {
      this.inspected = true;
      const problem = this.inspectHead(this.headBytes);
      if (problem) return callback(problem);
      this.keepLimit = Math.max(this.headLength, this.keepFor(this.headBytes));
    }
    if (this.keptLength < this.keepLimit) {
      const kept = chunk.subarray(0, this.keepLimit - this.keptLength);
      this.kept.push(kept);
      this.keptLength += kept.length;
    }
    callback(null, chunk);
  }
}
