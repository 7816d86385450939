import type { Plugin } from 'vite';

// antd's Table takes four tree helpers for its row selection from @rc-component/tree's index, which also
// exports the Tree component. Because the index is one of ListPage's imports, the `list` chunk held the
// whole Tree (≈ 9 KB br on every list screen), which only 菜单管理, 用户管理 and 角色管理's dialogs draw.
// The build points the import at the helpers' own modules; `npm run dev` keeps antd's import.
export const TABLE_SELECTION = /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useSelection\.js$/;

export const TREE_INDEX_IMPORT = "import { arrAdd, arrDel, conductCheck, convertDataToEntities } from '@rc-component/tree';";

export const TREE_HELPER_IMPORTS = [
  "import { arrAdd, arrDel } from '@rc-component/tree/es/util';",
  "import { conductCheck } from '@rc-component/tree/es/utils/conductUtil';",
  "import { convertDataToEntities } from '@rc-component/tree/es/utils/treeUtil';",
].join('\n');

export function rewriteTableSelection(code: string): string {
  if (!code.includes(TREE_INDEX_IMPORT)) throw new Error(`antd's useSelection.js no longer has ${TREE_INDEX_IMPORT} (web/build/antd-table-selection.ts)`);
  return code.replace(TREE_INDEX_IMPORT, TREE_HELPER_IMPORTS);
}

export function antdTableSelection(): Plugin {
  return {
    name: 'huiyun-antd-table-selection',
    apply: 'build',
    transform(code, id) {
      return TABLE_SELECTION.test(id) ? { code: rewriteTableSelection(code), map: null } : undefined;
    },
  };
}
