import { Transform } from 'node:stream';

/**
 * Gathers a stream's small chunks into writes of at least `bytes`. pdfkit emits each PDF object
 * line by line: several hundred chunks for one certificate, each its own socket write (measured:
 * 6 % of a certificate's CPU went to those writes). Still a stream: a body larger than `bytes`
 * leaves in pieces as it is produced.
 */
export function chunkBatcher(bytes = 64 * 1024): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= bytes) {
        this.push(Buffer.concat(pending, pendingBytes));
        pending = [];
        pendingBytes = 0;
      }
      done();
    },
    flush(done) {
      if (pendingBytes > 0) this.push(Buffer.concat(pending, pendingBytes));
      done();
    },
  });
}
