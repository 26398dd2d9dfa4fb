import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { databaseErrorForLog, isDatabaseError } from './database-error-log';

/**
 * Structured JSON logs. Credentials never reach a log line: known secret-bearing keys are
 * redacted wherever they appear, request logging records no headers or bodies at all, and database
 * errors are logged without the values of their statement.
 */
export function createLogger(level: string, destination?: pino.DestinationStream | 'pretty'): Logger {
  const options: pino.LoggerOptions = {
    level,
    // pid tells apart the lines of the processes `npm run start:cluster` runs.
    base: { service: 'partner-booking', pid: process.pid },
    redact: {
      paths: [
        'clientSecret',
        '*.clientSecret',
        'accessToken',
        '*.accessToken',
        'secret',
        '*.secret',
        'authorization',
        '*.authorization',
        'password',
        '*.password',
        'url',
        '*.url',
        // Payment providers' keys (config.payments.khalti / .esewa), wherever a config object is logged.
        'secretKey',
        '*.secretKey',
        '*.*.secretKey',
        '*.*.*.secretKey',
      ],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
    // A database error's message carries the statement's values: passport and medical data among them.
    serializers: {
      err: (error: unknown) =>
        isDatabaseError(error)
          ? databaseErrorForLog(error)
          : pino.stdSerializers.err(error instanceof Error ? error : new Error(String(error))),
    },
  };
  // Readable lines for a terminal, written synchronously in this process (no transport worker);
  // a destination where a test reads the lines back; JSON on stdout otherwise.
  if (destination === 'pretty')
    return pino(
      options,
      pretty({ sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'service,hostname' }),
    );
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
