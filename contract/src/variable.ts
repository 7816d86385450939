import { z } from 'zod';
import { variable as m } from './messages.ts';
import { optionalId, optionalText, pageQuery, requiredText } from './fields.ts';
import type * as systemAnswers from './responses/system.ts';

export const variableSave = z.object({
  varId: optionalId,
  varLable: requiredText(m.varLableRequired, 100, m.tooLong),
  varName: requiredText(m.varNameRequired, 100, m.tooLong).regex(/^[A-Za-z0-9_.\-]+$/, m.varNameFormat),
  varValue: requiredText(m.varValueRequired, 2000, m.tooLong, { multiline: true }),
});
export type VariableSave = z.infer<typeof variableSave>;

export const variableListQuery = pageQuery.extend({
  varLable: optionalText(100),
  varName: optionalText(100),
});
export type VariableListQuery = z.infer<typeof variableListQuery>;

export type Variable = z.output<typeof systemAnswers.variableRow>;

/** The list's sortable fields: the screen's sortable columns, and the server's sort whitelist (db/list/paging.ts sortColumnsOf). */
export const variableSortFields = ['varLable', 'varName', 'varValue', 'editUser', 'editTime'] as const;
