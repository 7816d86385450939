import type { Kysely } from 'kysely';
import { capabilitiesOf, DEVICE_ONLINE_SECONDS, formatDateTime, shanghaiDay, type DeviceListQuery, type DeviceRow } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';
import { listPage } from '../../../db/list/paging.ts';
import { contains, type ListSearch } from '../../../db/list/search.ts';
import { inDeptScope } from '../../../db/scope.ts';
import type { Access } from '../../../http/caller.ts';
import { heldByDevice } from './number-leases.ts';

/** Activated devices the caller sees: an administrator those of owners in its scope, anyone else its own. */
function visibleDevices(db: Kysely<Database>, caller: Access) {
  const base = db
    .selectFrom('sync_auth_code as c')
    .innerJoin('sys_user as u', 'u.userId', 'c.authUserId')
    .where('c.machineCode', 'is not', null);
  return caller.isAdmin ? base.where(inDeptScope('u.deptId', caller.deptScope)) : base.where('c.authUserId', '=', caller.userId);
}

/** 设备列表: status from the last call, today's sends (Asia/Shanghai) and numbers held under a live lease. */
export async function listDevices(db: Kysely<Database>, caller: Access, query: DeviceListQuery, now: number) {
  const filtered = visibleDevices(db, caller);
  const searches: ListSearch[] = [];
  if (query.machineName) searches.push(contains(db, 'sync_auth_code', 'c.machineName', query.machineName));
  const today = shanghaiDay(now);
  const { rows, ...paged } = await listPage(
    db,
    filtered,
    (qb) => qb
      .leftJoin('sync_device_daily as dd', (join) => join.onRef('dd.machineCode', '=', 'c.machineCode').on('dd.day', '=', today))
      .select((eb) => [
        'c.id', 'c.authCode', 'c.machineCode', 'c.machineName', 'u.userName', 'c.lastSeenAt', 'c.activatedAt', 'c.battery', 'c.signalLevel',
        'c.appVersion', 'c.dueNum', 'c.dueDate', 'dd.sendCount', 'c.capabilities', 'c.deviceState',
        heldByDevice(eb, eb.ref('c.machineCode'), now).as('leased'),
      ]),
    { page: query.pageNum, limit: query.pageSize, sortField: '', sortOrder: '', after: query.after },
    { sortColumns: {}, defaultSort: ['c.id', 'desc'], tieBreaker: 'c.id', searches },
  );
  return { rows: rows.map((r): DeviceRow => ({
    authCodeId: r.id,
    authCode: r.authCode,
    machineCode: r.machineCode ?? '',
    machineName: r.machineName ?? '',
    userName: r.userName,
    online: r.lastSeenAt != null && now - Number(r.lastSeenAt) <= DEVICE_ONLINE_SECONDS * 1000,
    lastSeenStr: formatDateTime(r.lastSeenAt == null ? null : Number(r.lastSeenAt)),
    activatedAtStr: formatDateTime(r.activatedAt == null ? null : Number(r.activatedAt)),
    sentToday: Number(r.sendCount ?? 0),
    leased: Number(r.leased ?? 0),
    battery: r.battery,
    signal: r.signalLevel,
    appVersion: r.appVersion ?? '',
    dueNum: Number(r.dueNum),
    dueDateStr: formatDateTime(Number(r.dueDate)),
    capabilities: capabilitiesOf(r.capabilities),
    state: r.deviceState ?? '',
  })), ...paged };
}

