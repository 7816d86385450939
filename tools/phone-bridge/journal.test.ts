import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Journal } from './journal.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'phone-journal-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it('keeps, across a reopen, every message not yet settled, and forgets the settled ones', () => {
  const dir = tempDir();
  const first = Journal.open(dir, 'smsgate-p1-sim1');
  first.addBatch({ batchId: 'b_1', leaseUntil: 1000, leaseSeconds: 300 });
  first.addMessage({ msgId: 'hy1a0', batchId: 'b_1', itemId: 1, phone: '13800000001' });
  first.addMessage({ msgId: 'hy2a0', batchId: 'b_1', itemId: 2, phone: '13800000002' });
  first.addMessage({ msgId: 'hy3a0', batchId: 'b_1', itemId: 3, phone: '13800000003' });
  first.addMessage({ msgId: 'hy4a0', batchId: 'b_1', itemId: 4, phone: '13800000004' });
  first.addMessage({ msgId: 'hytabc5', batchId: 'b_1', itemId: null, phone: '13900000000' });
  first.markReported('hy1a0', 'failed');
  first.markReported('hy2a0', 'sent', 5);
  first.markReported('hy3a0', 'sent');
  first.markDeliveryDone('hy3a0');
  first.markDropped('hy4a0');
  first.markReported('hytabc5', 'sent');
  first.close();
  // A kill mid-write leaves a torn last line.
  fs.appendFileSync(path.join(dir, 'smsgate-p1-sim1.jsonl'), '{"k":"m","msgId":"hy9');

  const second = Journal.open(dir, 'smsgate-p1-sim1');
  expect(second.open()).toEqual([{ msgId: 'hy2a0', batchId: 'b_1', itemId: 2, phone: '13800000002', reported: 'sent', reportedAt: 5, deliveryDone: false }]);
  expect([...second.batches.values()]).toEqual([{ batchId: 'b_1', leaseUntil: 1000, leaseSeconds: 300 }]);
  second.markDeliveryDone('hy2a0');
  second.close();

  const third = Journal.open(dir, 'smsgate-p1-sim1');
  expect(third.open()).toEqual([]);
  expect(third.batches.size).toBe(0);
  expect(fs.readFileSync(third.file, 'utf8')).toBe('');
});

it('rewrites itself after many lines, keeping what is open', () => {
  const dir = tempDir();
  const journal = Journal.open(dir, 'm');
  journal.addBatch({ batchId: 'b_open', leaseUntil: 1, leaseSeconds: 1 });
  journal.addMessage({ msgId: 'hy1a0', batchId: 'b_open', itemId: 1, phone: '13800000001' });
  for (let i = 0; i < 20_000; i++) journal.addBatch({ batchId: `b_${i}`, leaseUntil: 1, leaseSeconds: 1 });
  journal.addBatch({ batchId: 'b_last', leaseUntil: 1, leaseSeconds: 1 });
  journal.close();
  const lines = fs.readFileSync(journal.file, 'utf8').trim().split('\n');
  // The open message and its batch, then the few batches written after the rewrite.
  expect(lines.length).toBeLessThan(10);
  expect(lines.slice(0, 2).map((l) => JSON.parse(l).k)).toEqual(['b', 'm']);
  expect(Journal.open(dir, 'm').open().map((m) => m.msgId)).toEqual(['hy1a0']);
});
