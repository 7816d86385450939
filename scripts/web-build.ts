import fs from 'node:fs';
import path from 'node:path';

// The console build is stale when any source it is made from is newer than its index.html.
const root = path.resolve(import.meta.dirname, '..');
const sources = ['web/src', 'web/index.html', 'web/public', 'web/vite.config.ts', 'web/build', 'web/package.json', 'contract/src'];

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
