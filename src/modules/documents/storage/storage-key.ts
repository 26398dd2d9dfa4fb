import { randomUUID } from 'node:crypto';

const KEY_PATTERN = /^[0-9a-f]{2}\/[0-9a-f-]{36}$/;

/**
 * A new storage key, `<2 hex>/<uuid>`: generated, never derived from client input, fanned out
 * over 256 folders (or prefixes), and unable to name anything outside the store's root.
 */
export function newStorageKey(): string {
  const id = randomUUID();
  return `${id.slice(0, 2)}/${id}`;
}

/** Refuses anything that is not a key newStorageKey could have made (a path, `..`, another prefix). */
export function checkedStorageKey(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error(`Not a storage key: ${key}`);
  return key;
}
