import { useState } from 'react';
import { useOpenedOnce } from './useOpenedOnce.ts';

/**
 * The state of an add / edit dialog: ListPage's (its `edit`), and the one of a screen that is not a list
 * (货道管理's board). `opened`: mount the lazy dialog from its first opening on. Closing keeps `editing`,
 * so the title does not turn to 新增 while the dialog fades out.
 */
export function useEditDialog<Row>() {
  const [state, setState] = useState<{ open: boolean; editing: Row | null }>({ open: false, editing: null });
  const opened = useOpenedOnce(state.open);
  return {
    open: state.open,
    editing: state.editing,
    opened,
    openAdd: () => setState({ open: true, editing: null }),
    openEdit: (row: Row) => setState({ open: true, editing: row }),
    close: () => setState((s) => ({ ...s, open: false })),
  };
}
