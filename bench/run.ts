// `npm run bench -- NAME`: runs bench/NAME.ts, which prints its figures beside a baseline measured in
// the same run. Benchmarks are never part of `npm test` (time is measured here, never asserted).
import fs from 'node:fs';
import path from 'node:path';

const name = process.argv[2];
const available = fs.readdirSync(import.meta.dirname).filter((f) => f.endsWith('.ts') && f !== 'run.ts').map((f) => f.replace(/\.ts$/, ''));
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}>`);
  process.exit(1);
}
await import(path.join(import.meta.dirname, `${name}.ts`));
