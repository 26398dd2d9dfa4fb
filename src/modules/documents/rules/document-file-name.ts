/** Longest display name we keep, in characters; the extension survives the cut. */
export const MAX_FILE_NAME_LENGTH = 120;

const FALLBACK = 'document';

/**
 * A client's file name made safe to store and show: only the last path segment, no control or
 * bidirectional-override characters, no leading dots, collapsed whitespace, bounded length. It is
 * display-only; the bytes are stored under a generated key, never under this name.
 */
export function sanitiseFileName(raw: string | undefined): string {
  if (!raw) return FALLBACK;
  const lastSegment = raw.normalize('NFC').split(/[\\/]/).pop() ?? '';
  const cleaned = lastSegment
    // C0/C1 controls, DEL, and the Unicode format characters that can disguise an extension
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  if (cleaned === '') return FALLBACK;
  return truncateKeepingExtension(cleaned, MAX_FILE_NAME_LENGTH);
}

function truncateKeepingExtension(name: string, max: number): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 10 ? [...name.slice(dot)] : [];
  return (
    chars
      .slice(0, max - extension.length)
      .join('')
      .trimEnd() + extension.join('')
  );
}
