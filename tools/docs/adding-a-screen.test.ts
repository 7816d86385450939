import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPage } from '../../server/src/db/list/paging.ts';
import { registerList } from '../../server/src/http/list-routes.ts';

// docs/adding-a-screen.md is a recipe: its code blocks are excerpts of the files they name on their
// first line, and the files it names exist. When the code moves on without the page, this fails.

const root = path.resolve(import.meta.dirname, '../..');
const page = fs.readFileSync(path.join(root, 'docs/adding-a-screen.md'), 'utf8');

/** Lines without their indentation; blank lines dropped (the page indents its blocks under a bullet). */
const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter((l) => l !== '');

/** Whether `wanted` stands in `text` as consecutive lines (blank lines aside). */
function standsIn(wanted: string[], text: string): boolean {
  const have = lines(text);
  return have.some((_, start) => wanted.every((line, i) => have[start + i] === line));
}

const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => lines(m[1]));

describe('docs/adding-a-screen.md', () => {
  it('has code blocks, each naming its file on its first line', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) expect(block[0], block.join('\n')).toMatch(/^\/\/ [\w./-]+\.tsx?$/);
  });

  it('shows each block as it stands in that file', () => {
    for (const [first, ...code] of blocks) {
      const file = first.slice(3);
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      // one excerpt may leave out the blank lines and the lines between its parts: each part must stand as written
      expect(standsIn(code, text), `${file}:\n${code.join('\n')}`).toBe(true);
    }
  });

  it('names only files that exist', () => {
    const named = [...page.matchAll(/`((?:contract|server|web|e2e|tools|docs)\/[\w./-]+\.(?:tsx?|md|mjs))`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((file) => !fs.existsSync(path.join(root, file)))).toEqual([]);
  });

  it('gives listPage and registerList the arguments the code takes', () => {
    // listPage(db, filtered, select, query, options) and registerList(app, options): a change of either fails here and in the typecheck
    expect(listPage.length).toBe(5);
    expect(registerList.length).toBe(2);
    expect(page).toContain('listPage(db, filtered, select, query, options)');
  });
});

type ListPageArgs = Parameters<typeof listPage>;
const listPageArgs: [ListPageArgs[0], ListPageArgs[1], ListPageArgs[2], ListPageArgs[3], ListPageArgs[4]] extends ListPageArgs ? true : never = true;
type RegisterListArgs = Parameters<typeof registerList>;
const registerListArgs: RegisterListArgs['length'] extends 2 ? true : never = true;
void listPageArgs;
void registerListArgs;
