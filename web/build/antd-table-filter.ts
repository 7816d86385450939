import type { Plugin } from 'vite';

// antd's Table imports its column filter dropdown whether or not a column has filters, and the dropdown
// brings antd's Tree, Menu and a search input with it (≈ 12 KB br on every list screen). No column in
// the console has `filters` or `filterDropdown` (antd-table-filter.test.ts fails when one does), so the
// build swaps the dropdown for a stub with the same exports; `npm run dev` keeps antd's own.
export const FILTER_DROPDOWN = /[\\/]antd[\\/]es[\\/]table[\\/]hooks[\\/]useFilter[\\/]FilterDropdown\.js$/;

export const FILTER_DROPDOWN_STUB = `
export function flattenKeys(filters) {
  let keys = [];
  (filters || []).forEach(({ value, children }) => {
    keys.push(value);
    if (children) keys = [...keys, ...flattenKeys(children)];
  });
  return keys;
}
export default function FilterDropdown() {
  throw new Error('Table column filters are left out of the console build (web/build/antd-table-filter.ts)');
}
`;

export function antdTableFilter(): Plugin {
  return {
    name: 'huiyun-antd-table-filter',
    apply: 'build',
    load(id) {
      return FILTER_DROPDOWN.test(id) ? FILTER_DROPDOWN_STUB : undefined;
    },
  };
}
