import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { SecretBox } from '../../../../infra/secret-box.ts';
import { payConfigPurpose } from '../config-secrets.ts';
import type { GatewayConfig } from '../gateway.ts';

// The key the simulator's two sides share, as a merchant and its platform share a 支付配置's key: the
// platform (platform.ts) signs its notifications and page tokens with it, the client (gateway.ts) checks a
// notification's signature. The 支付配置's partnerKey when set, else a key derived from the server's
// PAY_SECRET_KEY and the config id. Signature: hex HMAC-SHA256 over "<timestamp>\n<raw body>".

type KeyedConfig = Pick<GatewayConfig, 'id' | 'partnerKey'>;

export class SimulatorKeys {
  private readonly keys = new Map<string, KeyObject>();
  private readonly box: SecretBox;
  constructor(box: SecretBox) {
    this.box = box;
  }

  /**
   * A config's signing key, made once per (config, sealed partnerKey): opening or deriving it took an
   * AES or HMAC operation on each of a purchase's five signatures, and an HMAC with a key given as a
   * Buffer costs about five times one with a KeyObject (node 24).
   */
  key(config: KeyedConfig): KeyObject {
    const id = `${config.id}\n${config.partnerKey}`;
    let key = this.keys.get(id);
    if (!key) {
      key = createSecretKey(config.partnerKey
        ? Buffer.from(this.box.open(payConfigPurpose('partnerKey'), config.partnerKey), 'utf8')
        : createHmac('sha256', this.box.current.key).update(`simulator-notify:${config.id}`).digest());
      if (this.keys.size >= 1_000) this.keys.clear();
      this.keys.set(id, key);
    }
    return key;
  }

  /** The notification signature. */
  sign(config: KeyedConfig, timestamp: string, rawBody: string): string {
    return createHmac('sha256', this.key(config)).update(`${timestamp}\n${rawBody}`).digest('hex');
  }

  /** Whether `signature` (hex) is the notification signature. */
  signs(config: KeyedConfig, timestamp: string, rawBody: string, signature: string): boolean {
    const expected = createHmac('sha256', this.key(config)).update(`${timestamp}\n${rawBody}`).digest();
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The mac of a payment page's token. */
  pageMac(config: KeyedConfig, orderNo: string): string {
    return createHmac('sha256', this.key(config)).update(`page:${orderNo}`).digest('base64url').slice(0, 22);
  }

  /** Whether two tokens are the same, in constant time. */
  same(expected: string, given: string): boolean {
    const [a, b] = [Buffer.from(expected), Buffer.from(given)];
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
