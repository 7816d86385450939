import type { QueryClient, QueryKey } from '@tanstack/react-query';

// The one registry of TanStack Query keys. Every list and every dropdown is keyed by the
// entity it shows, `[entity, kind, ...]`, so one invalidation of `[entity]` reaches all of them on every
// screen: a role saved in 角色管理 is offered by 新增用户's role select without a reload. The entity
// names are the list screens' own keys ('role', 'user' …), which also name their forms' ids.

export const entities = [
  'role', 'user', 'dept', 'permission', 'variable', 'menu',
  'task', 'authcode', 'device', 'statistics', 'blacklist', 'reply',
  'online', 'operLog', 'loginLog',
  'payConfig', 'terminalConfig',
  'machine', 'aisle',
  'order', 'payAlarm', 'reconcile', 'reconcileDiff',
  'salesCharts', 'systemMonitor',
] as const;
export type Entity = (typeof entities)[number];

/**
 * What else shows an entity: changing it makes these stale too (a role's name is in the user list, a
 * user count in the role list, a deleted code takes its device with it …).
 */
export const shownIn: Readonly<Partial<Record<Entity, readonly Entity[]>>> = {
  role: ['user', 'permission'],
  user: ['role', 'statistics', 'authcode', 'device', 'task', 'online'],
  dept: ['user', 'blacklist'],
  permission: ['role'],
  authcode: ['device'],
  device: ['authcode'],
  task: ['statistics', 'device'],
  statistics: ['user', 'task', 'authcode', 'device'],
  payConfig: ['terminalConfig'],
  machine: ['aisle', 'terminalConfig'],
  reconcile: ['reconcileDiff'],
  reconcileDiff: ['reconcile'],
  order: ['salesCharts'],
};

export const queryKeys = {
  /** Everything of an entity: what an invalidation names. */
  all: (entity: Entity) => [entity] as const,
  /** One page of a list screen. */
  list: (entity: Entity, params: object) => [entity, 'list', params] as const,
  /** The choices a dropdown or tree offers; `scope` tells apart the dropdowns of one entity (whose, which call). */
  options: (entity: Entity, ...scope: (string | number)[]) => [entity, 'options', ...scope] as const,
};

/** The keys an entity's change makes stale: its own and those of the entities that show it. */
export function keysChangedBy(entity: Entity): QueryKey[] {
  return [entity, ...(shownIn[entity] ?? [])].map((e) => queryKeys.all(e));
}

/** After a change to an entity (save, delete, any server action): every list and dropdown showing it reloads. */
export async function invalidateEntity(queryClient: QueryClient, entity: Entity): Promise<void> {
  await Promise.all(keysChangedBy(entity).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
