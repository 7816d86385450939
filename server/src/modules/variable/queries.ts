import type { Kysely, Selectable } from 'kysely';
import { formatDateTime, variableSortFields, type Variable, type VariableListQuery } from '@huiyun/contract';
import type { Database } from '../../db/schema.ts';
import { contains, listPage, sortColumnsOf } from '../../db/list-query.ts';

const sortColumns = sortColumnsOf(variableSortFields);

export async function listVariables(db: Kysely<Database>, query: VariableListQuery) {
  let filtered = db.selectFrom('sys_variable');
  if (query.varLable) filtered = filtered.where(contains(db, 'sys_variable', 'varLable', query.varLable));
  if (query.varName) filtered = filtered.where(contains(db, 'sys_variable', 'varName', query.varName));
  const { rows, ...paged } = await listPage(db, filtered, (qb) => qb.selectAll().$castTo<VariableRow>(), query, {
    sortColumns, defaultSort: ['editTime', 'desc'], tieBreaker: 'varId',
  });
  return { rows: rows.map(toVariable), ...paged };
}

type VariableRow = Selectable<Database['sys_variable']>;

function toVariable(row: VariableRow): Variable {
  return { ...row, addTime: formatDateTime(row.addTime), editTime: formatDateTime(row.editTime) };
}
