import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Credentials never reach a log line: known secret-bearing keys are
 * redacted wherever they appear, and request logging records no headers or bodies at all.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    // pid tells apart the lines of the processes `npm run start:cluster` runs.
    base: { service: 'partner-booking', pid: process.pid },
    redact: {
      paths: [
        'clientSecret', '*.clientSecret', 'accessToken', '*.accessToken', 'secret', '*.secret',
        'authorization', '*.authorization', 'password', '*.password', 'url', '*.url',
      ],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  // A destination only where a test reads the lines back; stdout otherwise.
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
