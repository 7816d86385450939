import type { Config } from '../../server/src/config.ts';

/** What a backup's owner must keep beside it: the key that opens its 支付配置 and terminal keys. */
export function keyReminder(config: Pick<Config, 'paySecretKey'>, included: boolean): string {
  if (included) return 'the payment secret key is in this backup (pay-secret.key): keep the backup as secret as the key itself';
  if (config.paySecretKey) return 'REMINDER: not in this backup: PAY_SECRET_KEY (and PAY_SECRET_PREVIOUS_KEYS). Without that key a restored database cannot open a single 支付配置 or terminal key: keep it where you keep your secrets';
  return 'REMINDER: not in this backup: DATA_DIR/pay-secret.key. Without it a restored database cannot open a single 支付配置 or terminal key: keep a copy apart (or back up with --with-key)';
}
