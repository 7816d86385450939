import type { Kysely } from 'kysely';
import {
  formatDateTime, payConfigSecretFields, payConfigSortFields, SECRET_MASK, type PayConfig, type PayConfigListQuery, type PayGateway,
} from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Database } from '../../../db/schema.ts';
import { listPage, sortColumnsOf, type SelectedRow } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { holdsPrivateKey } from './key-checks.ts';
import { maskStored } from '../gateways/index.ts';

const sortColumns = sortColumnsOf(payConfigSortFields, { table: 'c' });

function configsInScope(db: Kysely<Database>, caller: Access) {
  return db.selectFrom('pay_config as c').leftJoin('sys_dept as d', 'd.deptId', 'c.deptId').where(inDeptScope('c.deptId', caller.deptScope));
}

function withColumns(qb: ReturnType<typeof configsInScope>) {
  return qb.selectAll('c').select('d.deptName');
}

/** The configs of the caller's companies (super administrator: all), every secret masked. */
export async function listPayConfigs(ctx: AppContext, caller: Access, query: PayConfigListQuery) {
  const db = ctx.db;
  let filtered = configsInScope(db, caller);
  const searches: ListSearch[] = [];
  if (query.name) searches.push(contains(db, 'pay_config', 'c.name', query.name));
  if (query.partner) searches.push(contains(db, 'pay_config', 'c.partner', query.partner));
  if (query.payType) filtered = filtered.where('c.payType', '=', query.payType);
  const { rows, ...paged } = await listPage(db, filtered, withColumns, query, {
    sortColumns, defaultSort: ['c.editTime', 'desc'], tieBreaker: 'c.id', searches,
  });
  return { rows: rows.map((row) => toPayConfig(ctx, row)), ...paged };
}

type PayConfigRow = SelectedRow<typeof withColumns>;

/**
 * A public key as stored (plain: no secret), unless it holds private key material — saved before the save refused
 * that — which is shown as the bare mask, never in full.
 */
const publicKeyShown = (text: string | null) => (holdsPrivateKey(String(text ?? '')) ? SECRET_MASK : String(text ?? ''));

function toPayConfig(ctx: AppContext, row: PayConfigRow): PayConfig {
  const masked = Object.fromEntries(payConfigSecretFields.map((field) => [field, maskStored(ctx, field, row[field])]));
  return {
    id: row.id,
    deptId: row.deptId,
    deptName: row.deptName ?? '',
    name: row.name,
    payType: row.payType,
    gateway: row.gateway as PayGateway,
    partner: String(row.partner),
    subMchId: String(row.subMchId),
    appid: String(row.appid),
    notifyUrl: String(row.notifyUrl),
    signType: String(row.signType),
    sellerUserId: String(row.sellerUserId),
    certSerialNo: String(row.certSerialNo),
    platformPubKeyId: String(row.platformPubKeyId),
    platformPubKey: publicKeyShown(row.platformPubKey),
    alipayPublicKey: publicKeyShown(row.alipayPublicKey),
    partnerKey: masked.partnerKey!,
    certPassword: masked.certPassword!,
    rsaKey: masked.rsaKey!,
    apiV3Key: masked.apiV3Key!,
    appPrivateKey: masked.appPrivateKey!,
    apiCert: masked.apiCert!,
    addUser: String(row.addUser),
    editUser: String(row.editUser),
    addTime: formatDateTime(Number(row.addTime)),
    editTime: formatDateTime(Number(row.editTime)),
  };
}
