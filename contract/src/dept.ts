import { z } from 'zod';
import { dept as m } from './messages.ts';
import { optionalId, optionalText, pageQuery, requiredText } from './fields.ts';
import type * as systemAnswers from './responses/system.ts';

export const deptSave = z.object({
  deptId: optionalId,
  deptName: requiredText(m.deptNameRequired, 100, m.tooLong),
  deptNo: requiredText(m.deptNoRequired, 50, m.tooLong).regex(/^[A-Za-z0-9_-]+$/, m.deptNoFormat),
});
export type DeptSave = z.infer<typeof deptSave>;

export const deptListQuery = pageQuery.extend({
  deptName: optionalText(100),
  deptNo: optionalText(50),
});
export type DeptListQuery = z.infer<typeof deptListQuery>;

/** A company (SPEC §3 Department / company). */
export type Dept = z.output<typeof systemAnswers.deptRow>;

/**
 * A company the caller may pick (a list's company filter, a dialog's company choice): one of its data
 * scope. POST /api/Dept/choices answers them, ordered by deptId.
 */
export type DeptChoice = z.output<typeof systemAnswers.deptChoice>;

export const deptSortFields = ['deptName', 'deptNo', 'editTime', 'editUser'] as const;
