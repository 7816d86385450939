import type { PayConfigSecretField } from '@huiyun/contract';
import type { Queryable } from '../../../db/schema.ts';
import type { SecretBox } from '../../../infra/secret-box.ts';
import { payConfigPurpose } from './config-secrets.ts';
import type { PayAccount } from './gateway.ts';

// The one place a 支付配置 row becomes what a gateway works with: its fields, and its sealed secrets opened
// once. No gateway reads pay_config or opens a secret itself.

export class PayAccountError extends Error {}

const textColumns = ['id', 'gateway', 'partner', 'appid', 'partnerKey', 'subMchId', 'signType', 'sellerUserId', 'certSerialNo', 'platformPubKeyId', 'platformPubKey', 'alipayPublicKey'] as const;
const secretColumns = ['certPassword', 'rsaKey', 'apiV3Key', 'appPrivateKey', 'apiCert'] as const;

type Row = Record<(typeof textColumns)[number] | (typeof secretColumns)[number], string> & { id: number };

/** The 支付配置 `id` with its secrets opened; undefined when there is none. Throws PayAccountError when a secret does not open here. */
export async function loadPayAccount(db: Queryable, box: SecretBox, id: number): Promise<PayAccount | undefined> {
  const row = await db.selectFrom('pay_config').select([...textColumns, ...secretColumns]).where('id', '=', id).executeTakeFirst();
  return row && payAccountOf(box, row as Row);
}

/** A row already read (with its sealed columns) → the account. */
export function payAccountOf(box: SecretBox, row: Row): PayAccount {
  const open = (field: PayConfigSecretField) => {
    const sealed = row[field];
    if (!sealed) return '';
    try {
      return box.open(payConfigPurpose(field), sealed);
    } catch {
      // never the value, nor the sealed text: only which field of which config
      throw new PayAccountError(`支付配置 ${row.id}: ${field} does not open under the key ring`);
    }
  };
  return {
    id: row.id, gateway: row.gateway, partner: row.partner, appid: row.appid, partnerKey: row.partnerKey,
    subMchId: row.subMchId, signType: row.signType, sellerUserId: row.sellerUserId, certSerialNo: row.certSerialNo,
    platformPubKeyId: row.platformPubKeyId, platformPubKey: row.platformPubKey, alipayPublicKey: row.alipayPublicKey,
    secrets: {
      partnerKey: open('partnerKey'), certPassword: open('certPassword'), rsaKey: open('rsaKey'), apiV3Key: open('apiV3Key'), appPrivateKey: open('appPrivateKey'),
      apiCert: open('apiCert'),
    },
  };
}
