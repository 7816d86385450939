import { z } from 'zod';

// In a browser, zod's compiled fast path probes `Function('')` when the first object schema is built,
// which the console's Content-Security-Policy (no 'unsafe-eval', server/src/http/security-headers.ts)
// reports as a violation; the interpreted path parses the same. The console's entry (web/src/main.tsx)
// imports this module (`@huiyun/contract/zod-config`) before anything else. It is not imported from
// index.ts: the package is side-effect free but for this file (package.json "sideEffects"), so a bundler
// skips index.ts, and any import in it, whenever the console only uses what it re-exports (Rolldown did:
// the call was missing from the built console). The server never imports it and keeps the compiled path;
// the guard keeps it so should this module ever be loaded outside a browser.
if ('window' in globalThis) z.config({ jitless: true });
