import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { MachineStatus, messages, TERMINAL_WINDOW_SECONDS, terminalHeaders } from '@huiyun/contract';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { unauthorized } from '../../http/errors.ts';
import { openTerminalKey } from '../machine/terminal-key.ts';
import type { TerminalMachine } from '../order/service.ts';

// The terminal protocol's signature check (docs/terminal-protocol.md §2), the one place it is done:
// the access check (http/access-check.ts) calls it for every route declaring access 'terminal'.
//   string to sign = METHOD \n PATH \n TIMESTAMP \n NONCE \n RAW BODY
//   X-Signature    = lowercase hex HMAC-SHA256(terminal key as UTF-8 text, string to sign)
// A timestamp (epoch seconds) beyond ±300 s, a nonce seen before, an unknown or disabled machine or a
// wrong signature is refused with 401 and nothing changes. The nonce is stored only after the signature
// holds, so nobody can burn a machine's nonces.

declare module 'fastify' {
  interface FastifyRequest {
    terminal?: TerminalMachine;
    rawBody?: string;
  }
}

const t = messages.terminal;
const NONCE = /^[A-Za-z0-9_-]{8,64}$/;

export function stringToSign(method: string, path: string, timestamp: string, nonce: string, rawBody: string): string {
  return `${method.toUpperCase()}\n${path}\n${timestamp}\n${nonce}\n${rawBody}`;
}

export function signTerminal(key: string, method: string, path: string, timestamp: string, nonce: string, rawBody: string): string {
  return createHmac('sha256', key).update(stringToSign(method, path, timestamp, nonce, rawBody)).digest('hex');
}

// Opening a sealed key is an AES-GCM decryption: done once per sealed value, not on every call (it was
// a sixth of a terminal call's CPU, docs/performance.md "Terminal flow"). A reset key is a new sealed
// value, opened anew. Per secret box, bounded: past OPENED_MAX keys the map starts over.
const OPENED_MAX = 20_000;
const openedKeys = new WeakMap<AppContext['secrets'], Map<string, string>>();

function terminalKeyOf(ctx: AppContext, sealed: string): string {
  let opened = openedKeys.get(ctx.secrets);
  if (!opened) openedKeys.set(ctx.secrets, (opened = new Map()));
  let key = opened.get(sealed);
  if (key === undefined) {
    key = openTerminalKey(ctx.secrets, sealed);
    if (opened.size >= OPENED_MAX) opened.clear();
    opened.set(sealed, key);
  }
  return key;
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : '';
};

export async function authenticateTerminal(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const machineNo = header(request, terminalHeaders.machineNo);
  const timestamp = header(request, terminalHeaders.timestamp);
  const nonce = header(request, terminalHeaders.nonce);
  const signature = header(request, terminalHeaders.signature).toLowerCase();
  if (!machineNo || !timestamp || !nonce || !signature) throw unauthorized(t.unsigned);
  const nowMs = ctx.now();
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) * 1000 - nowMs) > TERMINAL_WINDOW_SECONDS * 1000) throw unauthorized(t.badTimestamp);
  if (!NONCE.test(nonce)) throw unauthorized(t.badNonce);
  const machine = await ctx.db.selectFrom('pay_machine').select(['machineId', 'machineNo', 'deptId', 'status', 'terminalKey']).where('machineNo', '=', machineNo).executeTakeFirst();
  let key: string | undefined;
  try {
    key = machine ? terminalKeyOf(ctx, machine.terminalKey) : undefined;
  } catch {
    key = undefined;
  }
  const path = request.url.split('?')[0]!;
  const expected = createHmac('sha256', key ?? 'no machine').update(stringToSign(request.method, path, timestamp, nonce, request.rawBody ?? '')).digest();
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  const fits = given.length === expected.length && timingSafeEqual(given, expected);
  if (!machine || !key || !fits) throw unauthorized(t.badSignature);
  if (machine.status !== MachineStatus.enabled) throw unauthorized(t.machineDisabled);
  try {
    await ctx.db.insertInto('pay_terminal_nonce').values({ machineId: machine.machineId, nonce, expireAt: nowMs + 2 * TERMINAL_WINDOW_SECONDS * 1000 }).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw unauthorized(t.replayed);
    throw error;
  }
  request.terminal = { machineId: machine.machineId, machineNo: machine.machineNo, deptId: machine.deptId, status: machine.status };
}

