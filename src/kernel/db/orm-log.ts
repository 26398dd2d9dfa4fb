import { DefaultLogger, type LogContext, type LoggerNamespace, type LoggerOptions } from '@mikro-orm/core';
import { isOneOf } from '../narrow';

/** Where MikroORM's own lines go, by level (the migrator's progress is info). */
export interface OrmLogSink {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/**
 * MikroORM's default logger writes every line, migrator progress included, straight to stdout.
 * This one hands each line to a sink with its level, so the server can put them into its
 * structured log (where LOG_LEVEL decides) and the CLI can keep stdout free for `--json`.
 */
const NAMESPACES: readonly LoggerNamespace[] = [
  'query',
  'query-params',
  'schema',
  'discovery',
  'info',
  'deprecated',
  'slow-query',
];

class SinkLogger extends DefaultLogger {
  constructor(
    options: LoggerOptions,
    private readonly sink: OrmLogSink,
  ) {
    super(options);
  }

  override log(namespace: string, message: string, context?: LogContext): void {
    if (!isOneOf(NAMESPACES, namespace) || !this.isEnabled(namespace, context)) return;
    const line = `[${namespace}] ${message.replace(/\s+/g, ' ').trim()}`;
    if (context?.level === 'error') this.sink.error(line);
    else if (context?.level === 'warning') this.sink.warn(line);
    else this.sink.info(line);
  }
}

export function ormLoggerFactory(sink: OrmLogSink): (options: LoggerOptions) => DefaultLogger {
  return (options) => new SinkLogger(options, sink);
}

const writeStderr = (line: string) => process.stderr.write(`${line}\n`);

/** Default sink: standard error, off stdout. */
export const stderrSink: OrmLogSink = { info: writeStderr, warn: writeStderr, error: writeStderr };
