import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { payGateways } from '@huiyun/contract';

// docs/adding-a-gateway.md lists every file a new gateway touches: each real gateway has every new file it
// lists, no file of the tree is named after a gateway without being listed, and each entry that names the
// gateway's value holds every gateway's. When a gateway grows a file the page does not know, this fails.

const root = path.resolve(import.meta.dirname, '../..');
const page = fs.readFileSync(path.join(root, 'docs/adding-a-gateway.md'), 'utf8');
const section = page.slice(page.indexOf('## The files a new gateway touches'), page.indexOf('### When it needs more'));
const rows = [...section.matchAll(/^\| (new(?:, if any)?|entry) \| `([^`]+)` \| (.*) \|$/gm)].map(([, kind, file, what]) => ({ kind: kind!, file: file!, what: what! }));

/** The gateways with a folder of their own (the simulator is the product's, with no fake and no sale test). */
const real = payGateways.filter((value) => value !== 'simulator').map((value) => ({ value, folder: value.replace(/_/g, '-') }));
const fileOf = (pattern: string, g: { value: string; folder: string }) => pattern.replaceAll('<gateway>', g.folder).replaceAll('<value>', g.value);
const matches = (pattern: string, file: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`).test(file);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : filesUnder(rel);
    return [rel];
  });
}

describe('docs/adding-a-gateway.md', () => {
  it('lists new files and entries', () => {
    expect(rows.filter((r) => r.kind.startsWith('new')).length).toBeGreaterThanOrEqual(5);
    expect(rows.filter((r) => r.kind === 'entry').length).toBeGreaterThanOrEqual(3);
    expect(real.length).toBeGreaterThanOrEqual(3);
  });

  it('names new files each real gateway has', () => {
    const missing = rows.filter((r) => r.kind === 'new').flatMap((r) => real.map((g) => fileOf(r.file, g))).filter((file) => !fs.existsSync(path.join(root, file)));
    expect(missing).toEqual([]);
  });

  it('lists every file of the tree named after a gateway', () => {
    const patterns = rows.filter((r) => r.kind.startsWith('new'));
    const tree = ['contract/src', 'server/src', 'web/src', 'tools', 'e2e', 'bench', 'docs'].flatMap(filesUnder);
    const unlisted = real.flatMap((g) => tree
      .filter((file) => file.split('/').some((part) => part === g.folder || part.replace(/\.\w+$/, '').includes(g.folder)))
      .filter((file) => !patterns.some((r) => matches(fileOf(r.file, g), file))));
    expect(unlisted).toEqual([]);
  });

  it('has every entry file, and each that names <value> holds every gateway\'s', () => {
    for (const r of rows.filter((row) => row.kind === 'entry')) {
      const text = fs.readFileSync(path.join(root, r.file), 'utf8');
      if (r.what.includes('<value>')) for (const g of real) expect(text, `${r.file}: ${g.value}`).toContain(g.value);
    }
  });
});
