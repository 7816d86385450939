import type { Kysely, Selectable } from 'kysely';
import { ModuleLeaf, type Module, type ModuleNodesQuery, type ModuleTreeNode } from '@huiyun/contract';
import type { Database } from '../../../db/schema.ts';

type ModuleRow = Selectable<Database['sys_module']>;

const byOrder = (a: Module, b: Module) => a.moduleOrder - b.moduleOrder || a.moduleId - b.moduleId;

export async function allModules(db: Kysely<Database>): Promise<Module[]> {
  const rows = await db.selectFrom('sys_module').selectAll().execute();
  return rows.map(toModule).sort(byOrder);
}

/** The whole module tree; a node whose parent is missing shows at the top rather than vanishing. */
export async function moduleTree(db: Kysely<Database>): Promise<ModuleTreeNode[]> {
  const nodes = new Map<number, ModuleTreeNode>((await allModules(db)).map((m) => [m.moduleId, { ...m, children: [] }]));
  const roots: ModuleTreeNode[] = [];
  for (const node of nodes.values()) (nodes.get(node.parentId)?.children ?? roots).push(node);
  return roots;
}

/** Parent choices: the groups, paged, in menu order. */
export async function groupModules(db: Kysely<Database>, query: ModuleNodesQuery): Promise<{ rows: Module[]; total: number }> {
  const groups = db.selectFrom('sys_module').where('isLeaf', '=', ModuleLeaf.group);
  const { total } = await groups.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await groups
    .selectAll()
    .orderBy('moduleOrder')
    .orderBy('moduleId')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return { rows: rows.map(toModule), total: Number(total) };
}

export async function findModule(db: Kysely<Database>, moduleId: number): Promise<Module | undefined> {
  const row = await db.selectFrom('sys_module').selectAll().where('moduleId', '=', moduleId).executeTakeFirst();
  return row && toModule(row);
}

function toModule(row: ModuleRow): Module {
  return {
    moduleId: row.moduleId,
    parentId: row.parentId,
    moduleLevel: row.moduleLevel,
    systemNo: row.systemNo,
    isLeaf: row.isLeaf,
    fullIndex: row.fullIndex,
    moduleIcon: row.moduleIcon,
    moduleOrder: row.moduleOrder,
    moduleName: row.moduleName,
    moduleNotes: row.moduleNotes,
    moduleUrl: row.moduleUrl,
  };
}
