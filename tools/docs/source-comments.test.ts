import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Comments describe the code as it is; which issue asked for a line is history, kept in git and
// docs/performance-history.md. A clean clone is a git checkout, so git grep sees exactly the sources.

const root = path.resolve(import.meta.dirname, '../..');

/** The lines of the repository's sources that match the pattern (git grep, extended regex). */
function sourceLinesMatching(pattern: string): string[] {
  try {
    return execFileSync('git', ['grep', '-nE', pattern, '--', '*.ts', '*.tsx', '*.mjs'], { cwd: root, encoding: 'utf8' })
      .split('\n').filter(Boolean).filter((line) => !line.startsWith('tools/docs/source-comments.test.ts:'));
  } catch (error) {
    if ((error as { status?: number }).status === 1) return []; // git grep: nothing matched
    throw error;
  }
}

describe('source comments', () => {
  it('name no issue numbers', () => {
    expect(sourceLinesMatching('[Ii]ssue [0-9]+')).toEqual([]);
  });

  it('the check itself finds a line that names one', () => {
    expect(sourceLinesMatching('front door of modules/pay/orders').length).toBe(1);
  });
});
