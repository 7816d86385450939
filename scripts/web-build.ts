import fs from 'node:fs';
import path from 'node:path';
import { runOrExit } from './run.ts';

// The console build is stale when any source it is made from is newer than its index.html (the lock file
// too: a dependency changed by `npm ci` changes what the same sources build to).
const root = path.resolve(import.meta.dirname, '..');
const sources = ['web/src', 'web/index.html', 'web/public', 'web/vite.config.ts', 'web/build', 'web/package.json', 'contract/src', 'package-lock.json'];

function newestMtime(target: string): number {
  const full = path.join(root, target);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((max, e) => Math.max(max, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs), 0);
}

export function consoleBuildIsFresh(): boolean {
  const index = path.join(root, 'web/dist/index.html');
  if (!fs.existsSync(index)) return false;
  const built = fs.statSync(index).mtimeMs;
  return sources.every((s) => newestMtime(s) <= built);
}

/**
 * Builds the console when its build is missing or stale (`npm start`, the end-to-end tests, `bench bundle`):
 * in `npm test` the bundle bench's smoke run builds it and the end-to-end tests then drive that same build.
 * Always the production build: Vite keeps a NODE_ENV it inherits, and under Vitest (NODE_ENV=test) it made
 * React's development build, which the end-to-end tests then drove.
 */
export function ensureConsoleBuild(): void {
  if (consoleBuildIsFresh()) return;
  console.log('Building the console (web/dist is missing or older than its sources)…');
  runOrExit('npm', ['run', 'build', '-w', 'web'], { NODE_ENV: 'production' });
}

if (process.argv[1] === import.meta.filename) ensureConsoleBuild();
