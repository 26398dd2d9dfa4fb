import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PdfVerdict } from './rules/pdf-active-content';

export interface PdfCheckBudget {
  /** Worker threads judging at once; the jobs beyond wait their turn. */
  workers: number;
  /** Wall-clock time one PDF may take; past it the worker is terminated and replaced. */
  timeoutMs: number;
  /** What the streams the judge reads of one PDF (cross-reference and object streams) may decode to, in all. */
  inflatedBytes: number;
  /** The worker's V8 heap ceiling (`resourceLimits.maxOldGenerationSizeMb`). */
  heapMb: number;
}

export const PDF_CHECK_BUDGET: PdfCheckBudget = {
  workers: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
  timeoutMs: 5_000,
  inflatedBytes: 8 * 1024 * 1024,
  heapMb: 256,
};

/** Plain JavaScript next to this file, in src/ and (copied by build-if-stale.mjs) in dist/. */
const WORKER_SCRIPT = path.join(__dirname, 'pdf-check-worker.mjs');

interface Job {
  pdf: Uint8Array;
  resolve: (verdict: PdfVerdict) => void;
}

interface Running {
  job: Job;
  timer: NodeJS.Timeout;
}

/** One worker thread: ready once it has loaded the parser, busy with at most one job. */
class Judge {
  ready = false;
  running: Running | undefined;
  constructor(readonly worker: Worker) {}
}

interface WorkerMessage {
  ready?: boolean;
  verdict?: PdfVerdict;
}

/**
 * A small fixed pool of worker threads that judge uploaded PDFs, so that parsing and decoding a
 * file never runs on the event loop. Workers start on the first PDF (a server that never sees one
 * pays nothing), keep the process alive only while judging, and are terminated by stop().
 */
export class PdfCheckPool {
  private readonly judges = new Set<Judge>();
  private readonly queue: Job[] = [];
  private stopped = false;

  constructor(private readonly budget: PdfCheckBudget = PDF_CHECK_BUDGET) {}

  /** The verdict on one PDF; never rejects: whatever goes wrong is an undecidable PDF. */
  check(pdf: Uint8Array): Promise<PdfVerdict> {
    if (this.stopped) return Promise.resolve({ kind: 'undecidable', reason: 'the service is stopping' });
    return new Promise((resolve) => {
      this.queue.push({ pdf, resolve });
      this.dispatch();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.queue.splice(0)) job.resolve({ kind: 'undecidable', reason: 'the service is stopping' });
    await Promise.all(
      [...this.judges].map((judge) => this.retire(judge, { kind: 'undecidable', reason: 'the service is stopping' })),
    );
  }

  private dispatch(): void {
    for (const judge of this.judges) {
      const job = judge.ready && !judge.running ? this.queue.shift() : undefined;
      if (job) this.run(judge, job);
    }
    const starting = [...this.judges].filter((judge) => !judge.ready).length;
    if (this.queue.length > starting && this.judges.size < this.budget.workers) this.spawn();
  }

  private spawn(): void {
    const worker = new Worker(WORKER_SCRIPT, {
      workerData: { inflatedBudgetBytes: this.budget.inflatedBytes },
      resourceLimits: { maxOldGenerationSizeMb: this.budget.heapMb, maxYoungGenerationSizeMb: 32 },
    });
    worker.unref();
    const judge = new Judge(worker);
    this.judges.add(judge);
    worker.on('message', (message: WorkerMessage) => this.answered(judge, message));
    // Out of memory (resourceLimits), or the parser could not even load: the job is undecidable.
    worker.on(
      'error',
      (error: unknown) => void this.retire(judge, { kind: 'undecidable', reason: failureReason(error) }),
    );
    worker.on('exit', () => void this.retire(judge, { kind: 'undecidable', reason: 'the PDF reader stopped' }));
  }

  private answered(judge: Judge, message: WorkerMessage): void {
    if (message.ready) judge.ready = true;
    else if (message.verdict && judge.running) {
      clearTimeout(judge.running.timer);
      judge.running.job.resolve(message.verdict);
      judge.running = undefined;
      judge.worker.unref();
    }
    this.dispatch();
  }

  private run(judge: Judge, job: Job): void {
    const timer = setTimeout(() => {
      void this.retire(judge, {
        kind: 'undecidable',
        reason: `it took more than ${this.budget.timeoutMs / 1000} s to read`,
      });
    }, this.budget.timeoutMs);
    judge.running = { job, timer };
    judge.worker.ref();
    // A copy the worker owns: the caller's bytes stay usable.
    const copy = new Uint8Array(job.pdf);
    judge.worker.postMessage({ pdf: copy }, [copy.buffer]);
  }

  /** Ends one worker, answering its job (if any) with `verdict`; another starts when a job waits. */
  private async retire(judge: Judge, verdict: PdfVerdict): Promise<void> {
    if (!this.judges.delete(judge)) return;
    if (judge.running) {
      clearTimeout(judge.running.timer);
      judge.running.job.resolve(verdict);
      judge.running = undefined;
    }
    // A worker that failed to load before anything was sent: the waiting jobs would wait forever.
    if (!judge.ready && this.judges.size === 0) for (const job of this.queue.splice(0)) job.resolve(verdict);
    const ended = judge.worker.terminate();
    if (!this.stopped) this.dispatch();
    await ended;
  }
}

function failureReason(error: unknown): string {
  return error instanceof Error && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? 'reading it took too much memory'
    : 'the PDF reader failed';
}
