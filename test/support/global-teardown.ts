export default async function globalTeardown(): Promise<void> {
  const drop = (globalThis as Record<string, unknown>).__dropTestDatabase as (() => Promise<void>) | undefined;
  await drop?.();
}
