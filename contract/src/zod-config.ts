import { z } from 'zod';

// In a browser, zod's compiled fast path would probe `Function('')` while the contract's schemas are
// built, which the console's Content-Security-Policy (no 'unsafe-eval', server/src/http/security-headers.ts)
// reports as a violation; the interpreted path parses the same. The server keeps the compiled path.
// index.ts imports this module first, before any schema is built.
if ('window' in globalThis) z.config({ jitless: true });
