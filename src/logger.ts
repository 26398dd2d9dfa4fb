import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Credentials never reach a log line: known secret-bearing keys are
 * redacted wherever they appear, and request logging records no headers or bodies at all.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'partner-booking' },
    redact: {
      paths: [
        'clientSecret', '*.clientSecret', 'accessToken', '*.accessToken', 'secret', '*.secret',
        'authorization', '*.authorization', 'password', '*.password', 'url', '*.url',
      ],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

export type { Logger };
