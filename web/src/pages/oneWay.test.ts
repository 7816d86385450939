import { describe, expect, it } from 'vitest';

// The console has one way of each of these (web/src/components/ListPage/README.md): a screen that writes a
// second one fails here. The sources of every screen, as text.
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts'], { query: '?raw', import: 'default', eager: true });

/** The screens' files whose text matches. */
const matching = (pattern: RegExp) => Object.entries(sources).filter(([, text]) => pattern.test(text)).map(([file]) => file);

describe('one way in the console', () => {
  it('reads the screens', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
  });

  it('company choice: no screen reads the companies or applies the "many companies" rule itself (useCompanyOptions)', () => {
    expect(matching(/\bdeptChoices\b|options\('dept', 'choices'\)/)).toEqual([]);
    expect(matching(/RoleId\.superAdmin\s*\|\|/)).toEqual([]);
  });

  it("permission: no screen checks the caller's role or account code itself (usePermission, an Access)", () => {
    expect(matching(/\bisAdministratorAccount\(/)).toEqual([]);
    expect(matching(/\bme\??\.(roleId|code|permissions)\b/)).toEqual([]);
    expect(matching(/\buseAccess\b/)).toEqual([]);
  });

  it('add / edit: no list screen keeps its own dialog state for 新增 (ListPage edit, useEditDialog)', () => {
    expect(matching(/useState\(false\)[\s\S]*useOpenedOnce\(adding\)|const \[adding, setAdding\]/)).toEqual([]);
  });
});
