import type { SmsMessage } from './smsgate-client.ts';
import type { WebhookBody } from './webhook-receiver.ts';

// What one SMSGate message (one recipient) says about our number, from GET /messages/{id} or a webhook:
// still in the phone, sent, delivered, not delivered, failed to send, or cancelled before sending.

export type Outcome =
  | { kind: 'waiting' }
  | { kind: 'sent' }
  | { kind: 'delivered' }
  | { kind: 'undelivered'; reason: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'cancelled' };

/** Android refused the send because the app sent too many SMS lately (SmsUsageMonitor). */
export const LIMIT_EXCEEDED = 'RESULT_ERROR_LIMIT_EXCEEDED';

/** A failure after the SMS left the phone ("Delivery result: …") is a delivery outcome, not a failed send. */
const isDeliveryFailure = (reason: string) => /^delivery result/i.test(reason.trim());

export function outcomeOfMessage(message: SmsMessage): Outcome {
  const recipient = message.recipients?.[0];
  const state = recipient?.state ?? message.state;
  const reason = (recipient?.error ?? '') || '';
  switch (state) {
    case 'Pending':
    case 'Processed':
      return { kind: 'waiting' };
    case 'Cancelling':
    case 'Cancelled':
      return { kind: 'cancelled' };
    case 'Sent':
      return { kind: 'sent' };
    case 'Delivered':
      return { kind: 'delivered' };
    case 'Failed':
      return isDeliveryFailure(reason) || message.states?.Sent !== undefined
        ? { kind: 'undelivered', reason: reason || 'Delivery failed' }
        : { kind: 'failed', reason: reason || 'Failed' };
    default:
      return { kind: 'waiting' };
  }
}

/** The outcome an sms:sent / sms:delivered / sms:failed webhook tells; undefined for other events. */
export function outcomeOfEvent(event: WebhookBody): Outcome | undefined {
  switch (event.event) {
    case 'sms:sent':
      return { kind: 'sent' };
    case 'sms:delivered':
      return { kind: 'delivered' };
    case 'sms:failed': {
      const reason = String(event.payload.reason ?? '') || 'Failed';
      return isDeliveryFailure(reason) ? { kind: 'undelivered', reason } : { kind: 'failed', reason };
    }
    default:
      return undefined;
  }
}
