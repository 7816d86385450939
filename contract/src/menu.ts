import { z } from 'zod';
import { common, menu as m } from './messages.ts';
import { levelOf, optionalId, optionalText, pageQuery, pathIdOf, requiredText } from './fields.ts';
import type * as systemAnswers from './responses/system.ts';

// Menus have two levels: top-level groups (parentId 0) and the screens under them, which is what the
// side menu shows. A new menu under a group is a screen; one with parentId 0 is a group.
export const moduleSave = z.object({
  moduleId: optionalId,
  parentId: levelOf(m.parentRequired),
  moduleName: requiredText(m.moduleNameRequired, 64, m.tooLong),
  moduleIcon: requiredText(m.moduleIconRequired, 64, m.tooLong),
  moduleUrl: requiredText(m.moduleUrlRequired, 255, m.tooLong).regex(/^\/\S*$/, m.moduleUrlFormat),
  moduleOrder: levelOf(m.moduleOrderRequired, m.moduleOrderFormat).pipe(z.number().max(9999, m.moduleOrderFormat)),
  moduleNotes: optionalText(255, m.tooLong, { multiline: true }),
});
export type ModuleSave = z.infer<typeof moduleSave>;

/** POST /api/Module/nodes: the parent choices, paged (SPEC fetches page 1, limit 10). */
export const moduleNodesQuery = pageQuery.pick({ page: true, limit: true });
export type ModuleNodesQuery = z.infer<typeof moduleNodesQuery>;

/** GET /api/Module/get/{id}. */
export const moduleIdParams = z.object({ id: pathIdOf(common.badParameter) });

export type Module = z.output<typeof systemAnswers.moduleRow>;

/** POST /api/Module/list: the whole tree, each level ordered by moduleOrder. */
export type ModuleTreeNode = z.output<typeof systemAnswers.moduleTreeNode>;

export const TOP_LEVEL_PARENT_ID = 0;
