import fs from 'node:fs';
import { createRequire } from 'node:module';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import { stripStyleFunctions } from './antd-style-strip.ts';

const strip = (code: string) => stripStyleFunctions(code, parseAst(code) as never);

describe('antd style function strip', () => {
  it('replaces the style function of each style hook and keeps the token function', () => {
    const code = `import { genStyleHooks } from '../../theme/internal';
const genShared = (token) => ({ [token.componentCls]: { color: token.colorText } });
export default genStyleHooks('Button', (token) => [genShared(token)], prepareComponentToken, { unitless: { fontWeight: true } });`;
    const out = strip(code)!;
    expect(out).toContain(`genStyleHooks('Button', () => [], prepareComponentToken, { unitless: { fontWeight: true } })`);
    expect(out).not.toContain('(token) => [genShared(token)]');
  });

  it('leaves a file without style hooks alone', () => {
    expect(strip('export const prepareComponentToken = (token) => ({ a: token.b });')).toBeUndefined();
  });

  it('finds the hooks in antd as installed (the shape it relies on)', () => {
    const file = createRequire(import.meta.url).resolve('antd/es/button/style/index.js');
    const out = strip(fs.readFileSync(file, 'utf8'))!;
    expect(out).toMatch(/genStyleHooks\('Button', \(\) => \[\], prepareComponentToken/);
  });
});
