import { Fragment, type ReactNode } from 'react';
import { useAllowed, type Access } from '../shared/useCurrentUser.ts';

/** A toolbar button with who sees it (Access): a list screen's own (ListPage `toolbar`) or 菜单管理's. */
export type ToolbarEntry<Ctx> = Access & {
  key: string;
  render: (ctx: Ctx) => ReactNode;
};

/** The entries the caller's Access lets in, rendered: the one way a toolbar gates its buttons. */
export function useAllowedEntries<Ctx>(entries: ToolbarEntry<Ctx>[], ctx: Ctx): ReactNode[] {
  return useAllowed(entries).map((entry) => <Fragment key={entry.key}>{entry.render(ctx)}</Fragment>);
}
