import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/**
 * antd's zero-runtime styles (antd/dist/antd.css, every component's CSS written out at antd's build) cut
 * to what the console renders, in three parts (the whole console renders with `theme.zeroRuntime`):
 * - `virtual:antd-css/base.css`: the rules of no one component (reset, icons) and the components shown
 *   before sign-in (the login page, the toast holder): BASE; imported by App.tsx;
 * - `virtual:antd-css/console.css`: every other component the signed-in console uses but the date picker;
 * - `virtual:antd-css/picker.css`: the date picker, loaded with the one lazy chunk that shows it.
 * Components the console never renders are left out (UNUSED): a component added to a screen from that list
 * must come off it, or it renders unstyled (e2e/layout.spec.ts checks a few computed styles).
 */
export const UNUSED = [
  'cascader', 'color-picker', 'tree-select', 'select-tree', 'mentions', 'float-btn', 'splitter', 'tabs',
  'notification', 'anchor', 'masonry', 'avatar', 'carousel', 'collapse', 'picker-calendar', 'timeline',
  'transfer', 'steps', 'segmented', 'rate', 'slider', 'qrcode', 'tour', 'watermark', 'card', 'list', 'listy',
  'drawer', 'affix', 'back-top', 'popconfirm',
];
const PICKER = ['picker'];
// `result`: NotFoundPage shows outside the signed-in layout (its CSS is ~1 KB; importing console.css from
// it made the bundler share one chunk between the layout and the result pages' illustrations).
export const BASE = ['btn', 'input', 'checkbox', 'message', 'wave', 'result'];

type Part = 'base' | 'console' | 'picker' | 'unused';

/** The component a top-level rule styles: its first `.ant-<name>` class (for an at-rule, inside it). */
function componentOf(rule: string): string {
  const head = rule.startsWith('@') ? rule.slice(0, 400) : rule.slice(0, rule.indexOf('{'));
  return /\.ant-([a-z0-9-]+)/.exec(head)?.[1] ?? '';
}

const startsWithAny = (name: string, prefixes: readonly string[]) => prefixes.some((p) => name === p || name.startsWith(`${p}-`));

export function partOf(rule: string): Part {
  const name = componentOf(rule);
  if (name === '' || startsWithAny(name, BASE)) return 'base';
  if (startsWithAny(name, UNUSED)) return 'unused';
  return startsWithAny(name, PICKER) ? 'picker' : 'console';
}

/** The top-level rules of a stylesheet (at-rules with their blocks), as written. */
export function topLevelRules(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1));
      start = i + 1;
    }
  }
  return rules;
}

export function splitAntdCss(css: string): Record<Exclude<Part, 'unused'>, string> {
  const parts = { base: [] as string[], console: [] as string[], picker: [] as string[], unused: [] as string[] };
  for (const rule of topLevelRules(css)) parts[partOf(rule)].push(rule);
  return { base: parts.base.join(''), console: parts.console.join(''), picker: parts.picker.join('') };
}

const PREFIX = 'virtual:antd-css/';

export function antdCss(): Plugin {
  let parts: ReturnType<typeof splitAntdCss> | null = null;
  const load = () => {
    const file = createRequire(import.meta.url).resolve('antd/dist/antd.css');
    return (parts ??= splitAntdCss(fs.readFileSync(file, 'utf8')));
  };
  return {
    name: 'huiyun-antd-css',
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const part = id.slice(PREFIX.length + 1).replace(/\.css$/, '');
      if (part !== 'base' && part !== 'console' && part !== 'picker') throw new Error(`unknown antd css part: ${part}`);
      return load()[part];
    },
  };
}
