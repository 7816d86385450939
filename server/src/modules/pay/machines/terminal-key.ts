import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../../infra/secret-box.ts';
import { sealPurpose } from '../../../infra/sealed-columns.ts';

// A machine's terminal key signs the terminal protocol (PRODUCT §5). 32 random bytes, base64url: shown
// in clear once (at creation, at a reset), stored sealed (infra/sealed-columns.ts), never listed or logged.

export const TERMINAL_KEY_PURPOSE = sealPurpose('pay_machine', 'terminalKey');

export function newTerminalKey(): string {
  return randomBytes(32).toString('base64url');
}

export function sealTerminalKey(box: SecretBox, clear: string): string {
  return box.seal(TERMINAL_KEY_PURPOSE, clear);
}

/** The clear key of a stored machine (for the terminal protocol's signature check). */
export function openTerminalKey(box: SecretBox, sealed: string): string {
  return box.open(TERMINAL_KEY_PURPOSE, sealed);
}
