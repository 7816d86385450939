import { maskSecret, SECRET_MASK, type PayConfigSecretField } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import { sealPurpose } from '../../../infra/sealed-columns.ts';

// How a 支付配置's secrets cross the API: sealed at rest (ctx.secrets, purpose pay_config.<column>),
// shown masked (maskSecret), and a masked value sent back keeps the stored one.

export const payConfigPurpose = (field: PayConfigSecretField) => sealPurpose('pay_config', field);

/** The mask of a stored (sealed) secret; '' when none is stored; the bare mask when it does not open here. */
export function maskStored(ctx: Pick<AppContext, 'secrets'>, field: PayConfigSecretField, sealed: string): string {
  if (!sealed) return '';
  try {
    return maskSecret(ctx.secrets.open(payConfigPurpose(field), sealed));
  } catch {
    return SECRET_MASK; // sealed under a key no longer in the ring: still never shown
  }
}
