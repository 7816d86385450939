import type { PhoneBooks } from './books.ts';
import type { InboxEntry } from './routes.ts';
import type { Answer, Handler } from './server.ts';

// The fake's own routes (not SMSGate's), for a test or a bench that runs `npm run fake-phone` in another process
// and cannot call the library: GET /__fake/books (the summary and every send and reply), POST /__fake/receive
// {sender, text} (an inbound SMS), POST /__fake/limit {exceeded} (Android's limit on or off).
// Going offline has no route: a phone that stopped answering could not be told to come back.

const json = (status: number, data: unknown): Answer => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(data) });

/** What the controls need of a phone (phone.ts). */
type Controlled = { books: PhoneBooks; receive: (sender: string, text: string) => InboxEntry; setLimitExceeded: (on: boolean) => void };

export function fakeControls(phone: Controlled): Handler {
  return (r) => {
    let body: Record<string, unknown> = {};
    try {
      body = r.text ? (JSON.parse(r.text) as Record<string, unknown>) : {};
    } catch {
      return json(400, { message: 'body must be JSON' });
    }
    switch (`${r.method} ${r.path}`) {
      case 'GET /__fake/books':
        return json(200, { summary: phone.books.summary(), sends: phone.books.sends, replies: phone.books.replies });
      case 'POST /__fake/receive':
        if (typeof body.sender !== 'string' || body.sender === '' || typeof body.text !== 'string') return json(400, { message: 'sender and text are required' });
        return json(201, phone.receive(body.sender, body.text));
      case 'POST /__fake/limit':
        if (typeof body.exceeded !== 'boolean') return json(400, { message: 'exceeded must be a boolean' });
        phone.setLimitExceeded(body.exceeded);
        return json(200, { exceeded: body.exceeded });
      default:
        return json(404, { message: 'Not found' });
    }
  };
}
