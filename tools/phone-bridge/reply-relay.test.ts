import { expect, it } from 'vitest';
import { ReplyRelay, type Reply } from './reply-relay.ts';
import { PhoneError, type InboxEntry, type SmsGateClient } from './smsgate-client.ts';
import { newPhoneStats } from './status.ts';

const NOW = Date.parse('2026-11-28T04:00:00Z');

function relay(inbox: () => InboxEntry[], sim = 1) {
  const sent: Reply[][] = [];
  const stats = newPhoneStats('p');
  const phone = { inbox: async () => inbox() } as unknown as SmsGateClient;
  return { relay: new ReplyRelay({ phone, sink: async (replies) => void sent.push(replies), stats, sim }), sent, stats };
}

it('passes each reply on once, whether a webhook or the inbox told it, and only the last day\'s on the first read', async () => {
  const entries: InboxEntry[] = [
    { id: 'in-1', type: 'SMS', sender: '+8613800000001', contentPreview: 'TD', createdAt: new Date(NOW - 60_000).toISOString() },
    { id: 'in-old', type: 'SMS', sender: '+8613800000002', contentPreview: '好的', createdAt: new Date(NOW - 3 * 86_400_000).toISOString() },
    { id: 'mms-1', type: 'MMS', sender: '+8613800000003', contentPreview: '', createdAt: new Date(NOW).toISOString() },
  ];
  const { relay: r, sent, stats } = relay(() => entries);
  r.fromWebhook({ id: 'ev1', event: 'sms:received', payload: { messageId: 'in-1', sender: '+8613800000001', message: 'TD', receivedAt: new Date(NOW - 60_000).toISOString() } });
  // The other SIM's reply (the phone posts every event to both SIMs' registrations) is not this device's.
  r.fromWebhook({ id: 'ev2', event: 'sms:received', payload: { messageId: 'in-9', sender: '+8613800000009', message: '收到', simNumber: 2 } });
  await r.readInbox(NOW);
  await r.flush();
  entries.push({ id: 'in-2', type: 'SMS', sender: '13800000004', contentPreview: '退订', createdAt: new Date(NOW + 1000).toISOString() });
  await r.readInbox(NOW + 30_000);
  await r.readInbox(NOW + 60_000);
  await r.flush();
  expect(sent).toEqual([
    [{ messageId: 'in-1', phone: '+8613800000001', content: 'TD', receivedAt: NOW - 60_000 }],
    [{ messageId: 'in-2', phone: '13800000004', content: '退订', receivedAt: NOW + 1000 }],
  ]);
  expect(stats.replies).toBe(2);
});

it('stops reading an inbox the phone does not have', async () => {
  let reads = 0;
  const { relay: r, stats } = relay(() => {
    reads += 1;
    throw new PhoneError(404, 'GET /inbox: Not found');
  });
  await r.readInbox(NOW);
  await r.readInbox(NOW);
  expect(reads).toBe(1);
  expect(stats.lastError).toMatch(/no GET \/inbox/);
});
