/**
 * What the operator command line prints comes partly from partners (traveller names, agency
 * names, audit details). A terminal obeys what it is sent: a newline forges a line such as
 * `status PAID`, ESC and CSI sequences recolour or clear the screen, OSC sequences set the title
 * or plant links, bidirectional overrides reorder what is read. Every printer goes through this
 * module, which shows such characters as visible escapes instead.
 */

// C0 and C1 controls with DEL, line and paragraph separators, bidirectional embeddings,
// overrides and isolates, and lone surrogates (which a terminal cannot show either).
const NON_PRINTABLE =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (char: string) => char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');

/** One line of text with everything a terminal would act on shown as `\n`, `\x1B`, `\u202E`. */
export function printableLine(text: string): string {
  return text.replace(
    NON_PRINTABLE,
    (char) => NAMED[char] ?? (char.charCodeAt(0) <= 0xff ? `\\x${hex(char).slice(2)}` : `\\u${hex(char)}`),
  );
}

/** Lines joined for the terminal: each line is escaped on its own, so none can forge another. */
export function printableLines(lines: string | readonly string[]): string {
  return (typeof lines === 'string' ? [lines] : lines).map(printableLine).join('\n');
}

/**
 * JSON for the terminal. JSON.stringify already escapes C0 controls and lone surrogates; this
 * escapes what it leaves raw (DEL, C1, separators, bidirectional controls), still valid JSON.
 */
export function printableJson(value: unknown, indent = 2): string {
  return (JSON.stringify(value, null, indent) ?? 'null').replace(LEFT_RAW_BY_JSON, (char) => `\\u${hex(char)}`);
}

const LEFT_RAW_BY_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
