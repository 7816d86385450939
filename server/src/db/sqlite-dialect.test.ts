import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { withStatementCache } from './sqlite-dialect.ts';

it('reuses a statement by its text, and once full lets the least recently used one go', () => {
  const connection = withStatementCache(new DatabaseSync(':memory:'), 3);
  const one = connection.prepare('select 1 as n');
  expect(connection.prepare('select 1 as n')).toBe(one);
  expect(one.all([])).toEqual([{ n: 1 }]);
  const two = connection.prepare('select 2 as n');
  connection.prepare('select 3 as n'); // full: 1, 2, 3
  expect(connection.prepare('select 1 as n')).toBe(one); // used: now the most recent
  connection.prepare('select 4 as n'); // 2 goes
  expect(connection.prepare('select 1 as n')).toBe(one);
  expect(connection.prepare('select 2 as n')).not.toBe(two); // prepared again; 3 went for it
  connection.close();
});
