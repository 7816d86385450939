import type { BooksSummary } from './books.ts';

// The CLI's live line: a plain function of the books (tested alone).

export function formatBooks(s: BooksSummary): string {
  const parts = [
    `accepted ${s.accepted}`, `sent ${s.sent}`, `delivered ${s.delivered}`, `failed ${s.sendFailed}`, `undelivered ${s.undelivered}`,
    `replies ${s.replies} (退订 ${s.unsubscribes})`, `webhooks ${s.webhooks.posts} posts`,
  ];
  if (s.pending > 0) parts.push(`sending ${s.pending}`);
  if (s.conflicts > 0) parts.push(`409s ${s.conflicts}`);
  if (s.webhooks.retries > 0) parts.push(`webhook retries ${s.webhooks.retries}`);
  if (s.webhooks.gaveUp > 0) parts.push(`webhooks given up ${s.webhooks.gaveUp}`);
  const retried = s.repeated.length - s.sentTwice.length;
  if (retried > 0) parts.push(`retried after a failure ${retried}`);
  if (s.sentTwice.length > 0) parts.push(`NUMBERS SENT TWICE ${s.sentTwice.length}`);
  return parts.join(' · ');
}
