import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes bytes through unchanged while counting them, hashing them, and keeping the first few
 * for content sniffing. `inspectHead` sees those first bytes as soon as they have arrived and
 * can stop the stream (by returning an error) before the rest of the file is written anywhere.
 */
export class ContentProbe extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private headBytes = Buffer.alloc(0);
  private inspected = false;

  constructor(
    private readonly headLength: number,
    private readonly inspectHead: (head: Buffer) => Error | undefined = () => undefined,
  ) {
    super();
  }

  get head(): Buffer {
    return this.headBytes;
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
    }
    callback(null, chunk);
  }
}
