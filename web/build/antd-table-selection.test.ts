import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { TABLE_SELECTION, TREE_HELPER_IMPORTS, rewriteTableSelection } from './antd-table-selection.ts';

const require = createRequire(import.meta.url);

describe('antd table selection: the tree helpers from their own modules', () => {
  const useSelection = require.resolve('antd/es/table/hooks/useSelection.js');

  it('rewrites the import of antd as installed', () => {
    expect(TABLE_SELECTION.test(useSelection)).toBe(true);
    const rewritten = rewriteTableSelection(fs.readFileSync(useSelection, 'utf8'));
    expect(rewritten).toContain(TREE_HELPER_IMPORTS);
    expect(rewritten).not.toMatch(/from '@rc-component\/tree';/);
  });

  it('names modules that export each helper', () => {
    for (const [, names, module] of TREE_HELPER_IMPORTS.matchAll(/import \{ ([^}]+) \} from '([^']+)';/g)) {
      const source = fs.readFileSync(require.resolve(`${module}.js`), 'utf8');
      for (const name of names.split(', ')) expect(source, `${module} exports ${name}`).toMatch(new RegExp(`export function ${name}\\b`));
    }
  });

  it('fails the build when antd changes the import', () => {
    expect(() => rewriteTableSelection("import { arrAdd } from '@rc-component/tree';")).toThrow(/useSelection/);
  });
});
