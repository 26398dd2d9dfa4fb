import { imageSize } from 'image-size';
import type { DocumentContentType } from './document-content';

/** Wider or taller than any camera or scanner makes (WebP itself stops at 16,383). */
export const MAX_IMAGE_SIDE = 16_384;
/** More pixels than a 100-megapixel photo is a decompression bomb, not a passport photo. */
export const MAX_IMAGE_PIXELS = 100_000_000;

const FORMAT_OF: Partial<Record<DocumentContentType, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/**
 * Why the leading bytes of an image file are not an image of plausible dimensions (a PNG
 * signature followed by a script has no image header at all); undefined when they are.
 */
export function imageProblem(contentType: DocumentContentType, leadingBytes: Uint8Array): string | undefined {
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(leadingBytes);
  } catch {
    return 'is not a readable image';
  }
  const { width = 0, height = 0 } = size;
  if (size.type !== FORMAT_OF[contentType]) return 'is not a readable image';
  if (
    width < 1 ||
    height < 1 ||
    width > MAX_IMAGE_SIDE ||
    height > MAX_IMAGE_SIDE ||
    width * height > MAX_IMAGE_PIXELS
  ) {
    return `has implausible dimensions ${width}x${height} (at most ${MAX_IMAGE_SIDE} pixels a side, ${MAX_IMAGE_PIXELS / 1_000_000} megapixels)`;
  }
  return undefined;
}
