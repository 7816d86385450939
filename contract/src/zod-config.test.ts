import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

// The console imports zod-config.ts first (web/src/main.tsx; the e2e journeys fail on the CSP violation
// zod's `Function('')` probe would cause). Here: the rule itself, and that the server keeps zod's default.
describe('zod configuration', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    delete z.config().jitless;
  });

  it('leaves the server on zod’s compiled path: the contract does not configure zod, the config module only in a browser', async () => {
    await import('./index.ts');
    expect(z.config().jitless).toBeUndefined();
    await import('./zod-config.ts');
    expect(z.config().jitless).toBeUndefined();
  });

  it('turns zod’s compiled path off in a browser', async () => {
    vi.resetModules();
    vi.stubGlobal('window', globalThis);
    await import('./zod-config.ts');
    // zod keeps its configuration on globalThis, shared by the module copies vi.resetModules makes.
    expect(z.config().jitless).toBe(true);
  });
});
