import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { MachineStatus, messages, TERMINAL_WINDOW_SECONDS, terminalHeaders } from '@huiyun/contract';
import type { AppContext, KnownMachine } from '../../../context.ts';
import { compiledOnce } from '../../../db/compiled-once.ts';
import { dialectOf } from '../../../db/dialect.ts';
import { GroupWrite } from '../../../db/group-write.ts';
import { sharedWrite } from '../../../db/shared-commit.ts';
import type { Database } from '../../../db/schema.ts';
import { unauthorized } from '../../../http/errors.ts';
import { openTerminalKey } from '../machines/index.ts';

// The terminal protocol's signature check (docs/terminal-protocol.md §2), the one place it is done:
// the access check (http/access-check.ts) calls it for every route declaring access 'terminal'.
//   string to sign = METHOD \n PATH \n TIMESTAMP \n NONCE \n RAW BODY
//   X-Signature    = lowercase hex HMAC-SHA256(terminal key as UTF-8 text, string to sign)
// A timestamp (epoch seconds) beyond ±300 s, a nonce seen before, an unknown or disabled machine or a
// wrong signature is refused with 401 and nothing changes. The nonce is stored only after the signature
// holds, so nobody can burn a machine's nonces; and before the call goes on, so a replay is refused
// by every instance, before and after a restart.

declare module 'fastify' {
  interface FastifyRequest {
    terminal?: KnownMachine;
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

// Read through ctx.machineCache: a machine's key and status are asked on every signed call (three a
// purchase) and change only by the 终端管理 screen (machine/machine-service.ts drops the entry).
const machineByNo = compiledOnce((db, v: { machineNo: string }) => db
  .selectFrom('pay_machine').select(['machineId', 'machineNo', 'deptId', 'status', 'terminalKey']).where('machineNo', '=', v.machineNo));

export async function authenticateTerminal(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const machineNo = header(request, terminalHeaders.machineNo);
  const timestamp = header(request, terminalHeaders.timestamp);
  const nonce = header(request, terminalHeaders.nonce);
  const signature = header(request, terminalHeaders.signature).toLowerCase();
  if (!machineNo || !timestamp || !nonce || !signature) throw unauthorized(t.unsigned);
  const nowMs = ctx.now();
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) * 1000 - nowMs) > TERMINAL_WINDOW_SECONDS * 1000) throw unauthorized(t.badTimestamp);
  if (!NONCE.test(nonce)) throw unauthorized(t.badNonce);
  const machine = await ctx.machineCache.get(machineNo, nowMs, async () => (await machineByNo(ctx.db, { machineNo }))[0]);
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
  if (!(await nonceStore(ctx.db).claim(machine.machineId, nonce, nowMs + 2 * TERMINAL_WINDOW_SECONDS * 1000))) throw unauthorized(t.replayed);
  request.terminal = machine;
}


type NonceRow = { machineId: number; nonce: string; expireAt: number };
const nonceKey = (machineId: number, nonce: string) => `${machineId}:${nonce}`;

/**
 * The nonces seen (pay_terminal_nonce, primary key machine + nonce): the calls of one turn are stored
 * together, one statement and one commit (db/group-write.ts) — they were three commits of a purchase.
 * A call goes on only once its nonce row is committed; a nonce already stored, or already waiting in
 * this instance, is a replay.
 */
export class NonceStore {
  private readonly waiting = new Set<string>();
  private readonly writes: GroupWrite<NonceRow, boolean>;

  constructor(db: Kysely<Database>) {
    const insert = dialectOf(db) === 'postgres'
      ? (rows: NonceRow[]) => sql<{ machineId: number; nonce: string }>`insert into "pay_terminal_nonce" ("machineId", "nonce", "expireAt")
          select * from unnest(${rows.map((r) => r.machineId)}::integer[], ${rows.map((r) => r.nonce)}::varchar[], ${rows.map((r) => r.expireAt)}::bigint[])
          on conflict do nothing returning "machineId", "nonce"`
      // (SQLite reads "select … on conflict" as a join without the where)
      : (rows: NonceRow[]) => sql<{ machineId: number; nonce: string }>`insert into "pay_terminal_nonce" ("machineId", "nonce", "expireAt")
          select j.value ->> 0, j.value ->> 1, j.value ->> 2 from json_each(${JSON.stringify(rows.map((r) => [r.machineId, r.nonce, r.expireAt]))}) as j where true
          on conflict do nothing returning "machineId", "nonce"`;
    this.writes = new GroupWrite(async (rows) => {
      const stored = new Set((await sharedWrite(db, (q) => insert(rows).execute(q))).rows.map((r) => nonceKey(Number(r.machineId), r.nonce)));
      return rows.map((r) => stored.has(nonceKey(r.machineId, r.nonce)));
    });
  }

  /** True when the nonce is new (and is now stored); false for a replay. */
  async claim(machineId: number, nonce: string, expireAt: number): Promise<boolean> {
    const key = nonceKey(machineId, nonce);
    if (this.waiting.has(key)) return false;
    this.waiting.add(key);
    try {
      return await this.writes.add({ machineId, nonce, expireAt });
    } finally {
      this.waiting.delete(key);
    }
  }
}

const nonceStores = new WeakMap<Kysely<Database>, NonceStore>();

function nonceStore(db: Kysely<Database>): NonceStore {
  let store = nonceStores.get(db);
  if (!store) nonceStores.set(db, (store = new NonceStore(db)));
  return store;
}
