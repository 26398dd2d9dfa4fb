import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PaymentConfig } from '../../settings';
import { stringField } from '../../../../kernel/narrow';
import { GATEWAY_NAMES, type GatewayName } from '../gateway';

const SECRETS_FILE = 'gateway-secrets.json';

/**
 * The HMAC secret of each sandbox gateway (the live providers bring their own keys, see config).
 * From the environment when set (CARD_GATEWAY_SECRET, WALLET_GATEWAY_SECRET; createGateways asks
 * only in sandbox mode, the only mode the sandbox runs in). In sandbox mode a missing secret is generated
 * once per DATA_DIR and kept in `DATA_DIR/gateway-secrets.json` (mode 600), so every server
 * process and the CLI on the same DATA_DIR agree. Secrets never reach a log line or a response.
 */
export function loadGatewaySecrets(payments: PaymentConfig, dataDir: string): Record<GatewayName, string> {
  const missing = GATEWAY_NAMES.filter((name) => !payments.gatewaySecrets[name]);
  if (missing.length > 0 && payments.mode !== 'sandbox') {
    throw new Error(`PAYMENT_MODE=live needs ${missing.map((name) => `${name.toUpperCase()}_SECRET`).join(' and ')}`);
  }
  const generated = missing.length > 0 ? sandboxSecrets(dataDir) : undefined;
  const secretOf = (name: GatewayName) => payments.gatewaySecrets[name] ?? generated?.[name] ?? '';
  return { card_gateway: secretOf('card_gateway'), wallet_gateway: secretOf('wallet_gateway') };
}

function sandboxSecrets(dataDir: string): Record<GatewayName, string> {
  const file = path.join(dataDir, SECRETS_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  const fresh: Record<GatewayName, string> = {
    card_gateway: randomBytes(32).toString('base64url'),
    wallet_gateway: randomBytes(32).toString('base64url'),
  };
  try {
    // 'wx': exactly one of several processes starting together creates the file; the others read it.
    fs.writeFileSync(file, JSON.stringify(fresh), { flag: 'wx', mode: 0o600 });
    return fresh;
  } catch (error) {
    if (stringField(error, 'code') !== 'EEXIST') throw error;
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const stored: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      const card = stringField(stored, 'card_gateway');
      const wallet = stringField(stored, 'wallet_gateway');
      if (card && card.length >= 32 && wallet && wallet.length >= 32)
        return { card_gateway: card, wallet_gateway: wallet };
      throw new Error(`${file} is incomplete`);
    } catch (error) {
      // The creator may still be writing it.
      if (attempt >= 20) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}
