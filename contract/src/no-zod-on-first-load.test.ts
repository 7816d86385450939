import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The codes, labels, page sizes, permissions, messages and routes the console shows on every screen build no zod schema, not even
// through an import: importing a module that builds one brings zod (~70 KB minified) into a screen's first
// load. A constant or option list a screen shows goes in enums.ts or a *Labels.ts file, its schemas beside them.
const dir = import.meta.dirname;
const roots = fs.readdirSync(dir).filter((f) => /^(enums|routes|datetime|envelope|payOpen|payGateways|permissions|messages|[a-zA-Z]+Labels)\.ts$/.test(f));

/** The modules `file` imports at run time (type-only imports left out), as paths in this folder. */
function runtimeImports(file: string): { relative: string[]; packages: string[] } {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [
    ...[...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!),
    ...[...text.matchAll(/^import\s+'([^']+)'/gm)].map((m) => m[1]!),
  ];
  return {
    relative: specifiers.filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s)),
    packages: specifiers.filter((s) => !s.startsWith('.')),
  };
}

/** Every package the module reaches through its run-time imports, with the chain that reaches it. */
function reachedPackages(root: string): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const { relative, packages } = runtimeImports(file);
    for (const name of packages) if (!reached.has(name)) reached.set(name, [...chain, path.relative(dir, file)]);
    for (const next of relative) walk(next, [...chain, path.relative(dir, file)]);
  };
  walk(path.join(dir, root), []);
  return reached;
}

describe('what every console screen loads of the contract', () => {
  it('finds the modules', () => {
    expect(roots).toEqual(expect.arrayContaining(['enums.ts', 'routes.ts', 'orderLabels.ts', 'reconcileLabels.ts']));
  });

  it.each(roots)('%s reaches no zod', (root) => {
    const zod = [...reachedPackages(root)].filter(([name]) => name === 'zod' || name.startsWith('zod/'));
    expect(zod.map(([name, chain]) => `${chain.join(' → ')} → ${name}`)).toEqual([]);
  });
});
