import { Transform } from 'node:stream';

/** The reason a streamed answer was cut: its client stopped taking it, or it ran out of time. */
export class StreamDeadlineError extends Error {
  constructor(
    readonly kind: 'STALLED' | 'DEADLINE',
    ms: number,
  ) {
    super(kind === 'STALLED' ? `the client took no data for ${ms} ms` : `the answer was not finished after ${ms} ms`);
    this.name = 'StreamDeadlineError';
  }
}

export interface StreamDeadlines {
  /** Longest time without a chunk passing, which is how a client that stopped reading shows here (backpressure). */
  stallMs: number;
  /** Longest time for the whole answer. */
  totalMs: number;
}

/**
 * A pass-through that fails when its deadlines pass, so the pipeline it sits in destroys the
 * source (a streamed export gives its database connection back) and the socket (the client sees
 * a cut body). Without it a client that never reads holds what the source holds for as long as
 * it keeps the connection open.
 */
export function deadlineGuard({ stallMs, totalMs }: StreamDeadlines): Transform {
  const guard: Transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      stall.refresh();
      done(null, chunk);
    },
    flush(done) {
      clearTimers();
      done();
    },
  });
  const stall = setTimeout(() => guard.destroy(new StreamDeadlineError('STALLED', stallMs)), stallMs);
  const total = setTimeout(() => guard.destroy(new StreamDeadlineError('DEADLINE', totalMs)), totalMs);
  function clearTimers() {
    clearTimeout(stall);
    clearTimeout(total);
  }
  guard.once('close', clearTimers);
  return guard;
}
