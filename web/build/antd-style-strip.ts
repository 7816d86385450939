import type { Plugin } from 'vite';

// With theme.zeroRuntime (App.tsx) antd never calls a component's style function (its CSS comes from
// the static antd.css cut by antd-css.ts); only the hook around it and the component token (CSS
// variables) run. This plugin replaces the style function argument of antd's style hooks with
// `() => []`, so the style code (and what only it imports) is dropped by tree shaking: −53 KB br of
// script over the console (docs/performance.md). A screen rendered without zeroRuntime would be bare
// (e2e/layout.spec.ts checks computed styles before and after sign-in).
const HOOKS = new Set(['genStyleHooks', 'genComponentStyleHook', 'genSubStyleComponent']);
const STYLE_FILE = /[\\/]antd[\\/]es[\\/].+[\\/]style[\\/][^\\/]+\.js$/;

type Node = { type: string; start: number; end: number; [key: string]: any };

function* walk(node: Node): Generator<Node> {
  yield node;
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const v of value) { if (v && typeof v.type === 'string') yield* walk(v); }
    else if (value && typeof value.type === 'string') yield* walk(value);
  }
}

/** The code with the style function of every antd style hook call replaced by `() => []`. */
export function stripStyleFunctions(code: string, ast: Node): string | undefined {
  const styleFns: Node[] = [];
  for (const node of walk(ast)) {
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && HOOKS.has(node.callee.name) && node.arguments[1]) styleFns.push(node.arguments[1]);
  }
  let out = code;
  for (const fn of styleFns.sort((a, b) => b.start - a.start)) out = `${out.slice(0, fn.start)}() => []${out.slice(fn.end)}`;
  return styleFns.length ? out : undefined;
}

export function antdStyleStrip(): Plugin {
  return {
    name: 'huiyun-antd-style-strip',
    apply: 'build',
    transform(code, id) {
      if (!STYLE_FILE.test(id) || !/gen(StyleHooks|ComponentStyleHook|SubStyleComponent)\(/.test(code)) return undefined;
      const out = stripStyleFunctions(code, this.parse(code) as unknown as Node);
      return out === undefined ? undefined : { code: out, map: null };
    },
  };
}
