import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The import rules of .dependency-cruiser.mjs (run by `npm test`) catch what they are there for: each
// case is a small tree laid out like the repository, cruised with the repository's own configuration.

const root = path.resolve(import.meta.dirname, '../..');
const config = path.join(root, '.dependency-cruiser.mjs');
const depcruise = path.join(root, 'node_modules/.bin/depcruise');
const trees: string[] = [];
afterAll(() => trees.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** Writes the files into a fresh directory with a tsconfig like the repository's; cruises it. */
function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'huiyun-deprules-'));
  trees.push(dir);
  const tsconfig = { compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', allowImportingTsExtensions: true, noEmit: true, strict: true } };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  const folders = [...new Set(Object.keys(files).map((f) => f.split('/')[0]))];
  const run = spawnSync(depcruise, ['--config', config, '--output-type', 'err', ...folders], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const clean = {
  'contract/src/index.ts': "export const a = 1;\n",
  'server/src/db/scope.ts': "import { a } from '../../../contract/src/index.ts';\nexport const b = a;\n",
  'server/src/http/errors.ts': "import { b } from '../db/scope.ts';\nexport const c = b;\n",
  'server/src/modules/sending/tasks/service.ts': "import { c } from '../../../http/errors.ts';\nimport type { D } from './types.ts';\nexport const d: D = c;\n",
  'server/src/modules/sending/tasks/types.ts': 'export type D = number;\n',
  'web/src/components/List.ts': "import { e } from '../api/client.ts';\nexport const f = e;\n",
  'web/src/api/client.ts': "import { s } from '../shared/session.ts';\nexport const e = s;\n",
  'web/src/shared/session.ts': 'export const s = 1;\n',
  'web/src/shared/toast.ts': "import { e } from '../api/client.ts';\nexport const t = e;\n",
  'web/src/components/Dialog.ts': "import { t } from '../shared/toast.ts';\nexport const h = t;\n",
  'web/src/pages/task/devices/index.ts': "import { h } from '../../../components/Dialog.ts';\nimport { k } from './parts.ts';\nimport { w } from '../areaShared.ts';\nexport const i = h + k + w;\n",
  'web/src/pages/task/devices/parts.ts': 'export const k = 1;\n',
  'web/src/pages/task/areaShared.ts': 'export const w = 1;\n',
  'web/src/pages/task/authcode/Dialog.ts': 'export const j = 1;\n',
  'web/src/app/router.ts': "import { i } from '../pages/task/devices/index.ts';\nexport const r = i;\n",
  'server/src/modules/pay/orders/service.ts': "import { q } from '../gateways/index.ts';\nexport const o = q;\n",
  'server/src/modules/pay/orders/index.ts': "export { o } from './service.ts';\n",
  'server/src/modules/pay/gateways/client.ts': 'export const q = 1;\n',
  'server/src/modules/pay/gateways/index.ts': "export { q } from './client.ts';\n",
  'server/src/app.ts': "import { o } from './modules/pay/orders/index.ts';\nexport const p = o;\n",
};

// Each case starts depcruise (a few seconds, more on a busy machine).
describe('.dependency-cruiser.mjs', { timeout: 60_000 }, () => {
  it('passes a tree that keeps the rules', () => {
    const { status, output } = cruise(clean);
    expect(status, output).toBe(0);
  });

  it('fails the run on a break of each rule, naming it', () => {
    const { status, output } = cruise({
      ...clean,
      'server/src/modules/sending/tasks/types.ts': "import type { d } from './service.ts';\nexport type D = typeof d;\n",
      'server/src/http/errors.ts': "import { b } from '../db/scope.ts';\nimport type { D } from '../modules/sending/tasks/types.ts';\nexport const c: D = b;\n",
      'server/src/db/scope.ts': "import { a } from '../../../contract/src/index.ts';\nimport type { c } from '../http/errors.ts';\nexport const b: typeof c = a;\n",
      'contract/src/index.ts': "import type { e } from '../../web/src/api/client.ts';\nexport const a: typeof e = 1;\n",
      'web/src/api/client.ts': "import type { f } from '../components/List.ts';\nexport const e: typeof f = 1;\n",
      'server/src/modules/sending/tasks/uses-gone.ts': "import { gone } from './gone.ts';\nexport const g = gone;\n",
      'server/src/modules/pay/gateways/notify.ts': "import { o } from '../orders/service.ts';\nexport const n = o;\n",
      'server/src/modules/sending/tasks/uses-pay.ts': "import { q } from '../../pay/gateways/client.ts';\nexport const u = q;\n",
      'server/src/app.ts': "import { o } from './modules/pay/orders/service.ts';\nexport const p = o;\n",
      'web/src/components/Dialog.ts': "import { t } from '../shared/toast.ts';\nimport { r } from '../app/router.ts';\nexport const h = t + r;\n",
      'web/src/shared/toast.ts': "import { e } from '../api/client.ts';\nimport type { h } from '../components/Dialog.ts';\nexport const t: typeof h = e;\n",
      'web/src/pages/task/devices/parts.ts': "import { j } from '../authcode/Dialog.ts';\nexport const k = j;\n",
    });
    expect(status, output).not.toBe(0);
    for (const rule of [
      'no-circular', 'lower-layers-no-modules', 'db-below-infra-and-http', 'contract-stands-alone', 'web-api-no-components', 'resolvable',
      'gateway-no-order', 'areas-through-front-doors', 'outside-through-front-doors', 'web-app-is-the-shell', 'web-shared-below-components', 'web-screens-apart',
    ]) {
      expect(output, rule).toContain(rule);
    }
  });
});
