import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Journal } from './journal.ts';
import { MessageFollower, type DeliveryEntry, type ReportEntry } from './message-follower.ts';
import { outcomeOfEvent } from './message-state.ts';
import type { SmsGateClient, SmsMessage, SmsState } from './smsgate-client.ts';
import { newPhoneStats } from './status.ts';
import type { WebhookBody } from './webhook-receiver.ts';

// The follower against an in-test phone (a map of message states) and an in-test server (lists of what
// was reported): each number reported once as sent or failed, each delivery outcome once.

let dir: string;
let journal: Journal;
let phone: Map<string, SmsMessage>;
let cancelled: string[];
let reports: { batchId: string; results: ReportEntry[] }[];
let deliveries: DeliveryEntry[];
let limits: number;
let follower: MessageFollower;
const stats = newPhoneStats('p');

const stubPhone = {
  message: async (id: string) => phone.get(id) ?? null,
  cancel: async (id: string) => {
    const m = phone.get(id);
    if (!m || m.state !== 'Pending') return false;
    cancelled.push(id);
    phone.set(id, state(id, 'Cancelled'));
    return true;
  },
} as unknown as SmsGateClient;

const state = (id: string, s: SmsState, error?: string, wasSent = false): SmsMessage => ({
  id, state: s, recipients: [{ phoneNumber: '+8613800000001', state: s, error }], states: wasSent ? { Sent: 'then' } : {},
});
const event = (name: string, messageId: string, reason?: string): WebhookBody => ({ id: Math.random().toString(), event: name, payload: { messageId, reason } });

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'phone-follower-'));
  journal = Journal.open(dir, 'm');
  journal.addBatch({ batchId: 'b_1', leaseUntil: 100_000, leaseSeconds: 100 });
  phone = new Map();
  cancelled = [];
  reports = [];
  deliveries = [];
  limits = 0;
  follower = new MessageFollower({
    phone: stubPhone, journal, stats,
    sink: { report: async (batchId, results) => void reports.push({ batchId, results }), delivery: async (results) => void deliveries.push(...results) },
    timing: { pollMs: 10, deliveryPollMs: 10, deliveryFollowMs: 1_000_000 },
    onLimitExceeded: () => limits++,
  });
});
afterEach(() => {
  journal.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const track = (n: number) => {
  const message = { msgId: `hy${n}a0`, batchId: 'b_1', itemId: n, phone: `1380000000${n}` };
  journal.addMessage(message);
  follower.track(message, undefined, 0);
};

it('reports each number once, then its delivery once, whatever order and repeats the phone tells them in', async () => {
  for (const n of [1, 2, 3]) track(n);
  // 1: sent, then one delivered event per part of a long text; 2: delivered heard before sent; 3: delivery failed.
  follower.apply('hy1a0', outcomeOfEvent(event('sms:sent', 'hy1a0'))!);
  follower.apply('hy1a0', outcomeOfEvent(event('sms:delivered', 'hy1a0'))!);
  follower.apply('hy1a0', outcomeOfEvent(event('sms:delivered', 'hy1a0'))!);
  follower.apply('hy2a0', outcomeOfEvent(event('sms:delivered', 'hy2a0'))!);
  follower.apply('hy2a0', outcomeOfEvent(event('sms:sent', 'hy2a0'))!);
  phone.set('hy3a0', state('hy3a0', 'Failed', 'Delivery result: RESULT_ERROR_GENERIC_FAILURE', true));
  await follower.poll(1000);
  await follower.flush();
  follower.apply('hy1a0', outcomeOfEvent(event('sms:delivered', 'hy1a0'))!);
  follower.apply('hy2a0', outcomeOfEvent(event('sms:sent', 'hy2a0'))!);
  await follower.flush();

  expect(reports).toEqual([{ batchId: 'b_1', results: [{ id: 1, status: 'sent' }, { id: 2, status: 'sent' }, { id: 3, status: 'sent' }] }]);
  expect(deliveries).toEqual([
    { id: 1, status: 'delivered' }, { id: 2, status: 'delivered' },
    { id: 3, status: 'undelivered', reason: 'Delivery result: RESULT_ERROR_GENERIC_FAILURE' },
  ]);
  expect(follower.unsettled()).toBe(0);
  expect(journal.open()).toEqual([]);
});

it('sends a delivery only after the number\'s sent report was answered, however the news arrive', async () => {
  track(1);
  track(2);
  follower.apply('hy1a0', outcomeOfEvent(event('sms:sent', 'hy1a0'))!);
  await follower.flush();
  // The next events come while nothing else is queued: one for a number already reported, one new.
  follower.apply('hy1a0', outcomeOfEvent(event('sms:sent', 'hy1a0'))!);
  follower.apply('hy1a0', outcomeOfEvent(event('sms:delivered', 'hy1a0'))!);
  follower.apply('hy2a0', outcomeOfEvent(event('sms:delivered', 'hy2a0'))!);
  const order: string[] = [];
  const flushing = [follower.flush(), follower.flush()];
  await Promise.all(flushing);
  for (const r of reports) order.push(`report ${r.results.map((e) => e.id).join(',')}`);
  expect(order).toEqual(['report 1', 'report 2']);
  expect(deliveries.map((d) => d.id)).toEqual([1, 2]);
});

it('reports a failed send as failed, and tells the device when Android refused for its limit', async () => {
  track(1);
  track(2);
  phone.set('hy1a0', state('hy1a0', 'Failed', 'Send result: RESULT_ERROR_LIMIT_EXCEEDED'));
  phone.set('hy2a0', state('hy2a0', 'Failed', 'sendSMS: Invalid phone number'));
  await follower.poll(1000);
  await follower.flush();
  expect(reports[0].results).toEqual([
    { id: 1, status: 'failed', reason: 'Send result: RESULT_ERROR_LIMIT_EXCEEDED' },
    { id: 2, status: 'failed', reason: 'sendSMS: Invalid phone number' },
  ]);
  expect(limits).toBe(1);
  expect(deliveries).toEqual([]);
});

it('drops what the phone never took, and cancels what still waits in it when the lease is ending', async () => {
  track(1);
  track(2);
  track(3);
  phone.set('hy2a0', state('hy2a0', 'Pending'));
  phone.set('hy3a0', state('hy3a0', 'Pending'));
  await follower.poll(50_000);
  expect(cancelled).toEqual([]);
  expect(follower.unsettled()).toBe(2);
  // Within the last 10 s of the lease (a fifth of it for short leases) a message still Pending is cancelled; one Processed is not.
  phone.set('hy3a0', state('hy3a0', 'Processed'));
  await follower.poll(91_000);
  await follower.flush();
  expect(cancelled).toEqual(['hy2a0']);
  expect(reports).toEqual([]);
  expect(follower.unsettled()).toBe(1);
  expect(journal.open().map((m) => m.msgId)).toEqual(['hy3a0']);
});
