import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { testDbKind } from './test/test-database.ts';

// What a server start loads: exports (exceljs), QR codes (qrcode) and Alipay's bills (jszip) are loaded when
// first used, not as the server starts (they were ~700 of its ~1,300 CommonJS modules, ~0.3 s of CPU a start).
const lazy = ['exceljs', 'qrcode', 'jszip'];

describe.runIf(testDbKind() === 'sqlite')('a server start', () => {
  it(`does not load ${lazy.join(', ')}`, () => {
    const script = `
      import { createRequire } from 'node:module';
      await import(${JSON.stringify(new URL('./app.ts', import.meta.url).href)});
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(${JSON.stringify(lazy)}.filter((name) => loaded.some((file) => file.includes('/node_modules/' + name + '/')))));
    `;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(output.trim().split('\n').pop()!)).toEqual([]);
  });
});
