import { z } from 'zod';

/** Every problem of the settings at once, so that one failed start names them all. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

export type Env = Record<string, string | undefined>;

/** The environment being read, and the problems found so far in reading order. */
export interface EnvReading {
  env: Env;
  problems: string[];
}

/** What a variable's schema reads: its text, or undefined when unset or blank (an empty line in an env file). */
type Variable = z.ZodType<unknown, string | undefined>;

/** A variable read as text, with its default: a URL a caller builds for another file's schema. */
export type TextVariable = z.ZodType<string, string | undefined>;

/** The schema of a settings file: one entry per variable, named as in the environment. */
export type EnvSchema = z.ZodObject<Record<string, Variable>>;

/**
 * Reads the variables a schema names, in its order. Each variable is parsed on its own: a bad
 * value is noted in `problems` as one line that starts with the variable's name (a message that
 * does not name it is put after it), and its default is used, so that reading goes on and every
 * problem is found; the caller throws one ConfigError with them all. A variable with no default
 * (one that production requires) reads as undefined then, and the start is refused anyway.
 */
export function readEnv<Schema extends EnvSchema>(schema: Schema, { env, problems }: EnvReading): z.output<Schema> {
  const values: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(schema.shape)) {
    const raw = env[name];
    const parsed = variable.safeParse(raw === '' ? undefined : raw);
    if (parsed.success) {
      values[name] = parsed.data;
      continue;
    }
    for (const issue of parsed.error.issues)
      problems.push(issue.message.startsWith(name) ? issue.message : `${name} ${issue.message}`);
    const fallback = variable.safeParse(undefined);
    values[name] = fallback.success ? fallback.data : undefined;
  }
  // Each value parsed by its own entry of the schema (or that entry's default): the object is the schema's output.
  return values as z.output<Schema>;
}

/** A setting with no default: its absence is the problem `unset` states. */
export function textSetOr(unset: string) {
  return z.string({ error: (issue) => (issue.input === undefined ? unset : undefined) });
}

/** Any text; absent, the default given with `.default()` (or undefined with `.optional()`), else a problem. */
export const anyText = () => textSetOr('is not set');

/** A setting with no default: its absence is a problem, stated with `why`. */
export function requiredText(why: string) {
  return textSetOr(`is not set: ${why}`);
}

/** An integer within bounds; its text is read as JavaScript's Number() reads it. */
export function integer(min: number, max: number) {
  return anyText()
    .refine(
      (raw) => {
        const value = Number(raw);
        return Number.isInteger(value) && value >= min && value <= max;
      },
      { error: (issue) => `must be an integer from ${min} to ${max} (got "${String(issue.input)}")` },
    )
    .transform(Number);
}

/** true, 1, yes or false, 0, no, in any case. */
export function flag() {
  return z.stringbool({
    truthy: ['true', '1', 'yes'],
    falsy: ['false', '0', 'no'],
    case: 'insensitive',
    error: (issue) => `must be true or false (got "${String(issue.input)}")`,
  });
}

/** One of a fixed set of words, as written. */
export function oneOf<const Value extends string>(allowed: readonly [Value, ...Value[]]) {
  return z.enum(allowed, { error: (issue) => `must be one of ${allowed.join(', ')} (got "${String(issue.input)}")` });
}

/** A secret: its value never appears in a message. */
export function secret(minLength: number) {
  return anyText().min(minLength, { error: `must be at least ${minLength} characters long` });
}

/**
 * An absolute URL with one of `protocols` (`https:`), kept as written; `also` is what else a URL
 * of this variable must not be (asked only of a URL that passed), `unset` the problem of its absence.
 * The value is left out of the message: a database URL carries a password.
 */
export function url(
  protocols: readonly string[],
  { unset = 'is not set', also }: { unset?: string; also?: (url: URL) => string | undefined } = {},
) {
  return textSetOr(unset).superRefine((raw, ctx) => {
    const parsed = URL.parse(raw);
    const problem =
      parsed === null
        ? 'must be a URL (got a value that does not parse)'
        : protocols.includes(parsed.protocol)
          ? also?.(parsed)
          : `must be a ${protocols.map((p) => p.replace(/:$/, '://')).join(' or ')} URL (got ${parsed.protocol}//...)`;
    if (problem !== undefined) ctx.addIssue(problem);
  });
}
