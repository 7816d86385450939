import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { FILTER_DROPDOWN, FILTER_DROPDOWN_STUB } from './antd-table-filter.ts';

const exportsOf = (code: string) =>
  [...code.matchAll(/^export (?:function|const) (\w+)|^export default (?:function )?(\w+)/gm)].map((m) => (m[2] ? 'default' : m[1])).sort();

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('antd table filter stub', () => {
  const original = createRequire(import.meta.url).resolve('antd/es/table/hooks/useFilter/FilterDropdown.js');

  it('matches the dropdown module of antd as installed and has the same exports', () => {
    expect(FILTER_DROPDOWN.test(original)).toBe(true);
    expect(exportsOf(FILTER_DROPDOWN_STUB)).toEqual(exportsOf(fs.readFileSync(original, 'utf8')));
  });

  it('is safe: no table column of the console has a filter', () => {
    const src = path.resolve(import.meta.dirname, '../src');
    const users = sourceFiles(src).filter((file) =>
      /\b(filterDropdown|onFilter|filterSearch|filteredValue|defaultFilteredValue)\b|\bfilters\s*:\s*\[/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(users.map((file) => path.relative(src, file))).toEqual([]);
  });
});
