import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, WebhookReceiver, type WebhookBody } from './webhook-receiver.ts';

// The webhook checks on their own: signature, time window, replays. (The bridge against the fake
// phone's real webhooks is in bridge.test.ts.)

const KEY = 'k3y-of-the-phone';
const NOW = 1_795_000_000_000;
const body = (id: string) => JSON.stringify({ id, webhookId: 'w1', event: 'sms:sent', deviceId: 'd1', payload: { messageId: 'hy1a0', recipient: '+8613800138000' } });
const delivery = (raw: string, seconds: number, signature = signWebhook(KEY, raw, String(seconds))) =>
  ({ method: 'POST', url: '/hooks/smsgate-d1-sim1', headers: { 'x-timestamp': String(seconds), 'x-signature': signature } });

describe('verifyWebhook', () => {
  it('accepts the hex HMAC-SHA256 of body + timestamp within ±5 minutes', () => {
    const raw = body('e1');
    const ts = NOW / 1000;
    expect(verifyWebhook(KEY, raw, String(ts), signWebhook(KEY, raw, String(ts)), NOW)).toBe('ok');
    expect(verifyWebhook(KEY, raw, String(ts - 299), signWebhook(KEY, raw, String(ts - 299)), NOW)).toBe('ok');
    expect(verifyWebhook(KEY, raw, String(ts + 301), signWebhook(KEY, raw, String(ts + 301)), NOW)).toBe('stale');
    expect(verifyWebhook(KEY, raw, String(ts - 301), signWebhook(KEY, raw, String(ts - 301)), NOW)).toBe('stale');
  });

  it('refuses another key, a changed body, a changed timestamp, and missing headers', () => {
    const raw = body('e1');
    const ts = String(NOW / 1000);
    expect(verifyWebhook(KEY, raw, ts, signWebhook('other', raw, ts), NOW)).toBe('forged');
    expect(verifyWebhook(KEY, raw.replace('hy1a0', 'hy2a0'), ts, signWebhook(KEY, raw, ts), NOW)).toBe('forged');
    expect(verifyWebhook(KEY, raw, String(NOW / 1000 - 1), signWebhook(KEY, raw, ts), NOW)).toBe('forged');
    expect(verifyWebhook(KEY, raw, undefined, signWebhook(KEY, raw, ts), NOW)).toBe('forged');
    expect(verifyWebhook(KEY, raw, ts, undefined, NOW)).toBe('forged');
    expect(verifyWebhook(KEY, raw, ts, 'zz', NOW)).toBe('forged');
  });
});

describe('WebhookReceiver', () => {
  it('passes on a good event once; forged, stale and replayed ones are not passed on', () => {
    let now = NOW;
    const receiver = new WebhookReceiver(() => now);
    const events: WebhookBody[] = [];
    receiver.addRoute('smsgate-d1-sim1', { signingKey: KEY, onEvent: (e) => events.push(e) });
    const ts = NOW / 1000;

    expect(receiver.receive(delivery(body('e1'), ts), body('e1'))).toBe(200);
    expect(receiver.receive(delivery(body('e1'), ts), body('e1'))).toBe(200);
    expect(receiver.receive(delivery(body('e2'), ts, signWebhook('guess', body('e2'), String(ts))), body('e2'))).toBe(401);
    expect(receiver.receive(delivery(body('e3'), ts - 600), body('e3'))).toBe(400);
    expect(receiver.receive({ ...delivery(body('e4'), ts), url: '/hooks/unknown' }, body('e4'))).toBe(404);
    expect(receiver.receive(delivery('not json', ts), 'not json')).toBe(400);
    expect(events.map((e) => e.id)).toEqual(['e1']);
    expect(receiver.counts).toEqual({ accepted: 1, forged: 1, stale: 1, replayed: 1, malformed: 1, unknownRoute: 1 });

    // Ten minutes on, the first event is forgotten, but a replay of it is stale by then anyway.
    now += 11 * 60_000;
    expect(receiver.receive(delivery(body('e1'), ts), body('e1'))).toBe(400);
    expect(events).toHaveLength(1);
  });
});
