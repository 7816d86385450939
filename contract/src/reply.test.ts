import { describe, expect, it } from 'vitest';
import { DEFAULT_UNSUBSCRIBE_KEYWORDS, deviceRepliesRequest, isUnsubscribeReply, normalizeReplyPhone, parseUnsubscribeKeywords, replyListQuery } from './reply.ts';

describe('退订 keywords', () => {
  const keywords = parseUnsubscribeKeywords(DEFAULT_UNSUBSCRIBE_KEYWORDS);

  it('match the whole reply, trimmed, in any case and width', () => {
    for (const reply of ['T', 't', 'td', 'Td', 'ＴＤ', 'ｔｄ', ' 退订 ', '\u3000退订\u3000', '拒收', 'R', 'n', ' TD\n']) {
      expect(isUnsubscribeReply(reply, keywords), reply).toBe(true);
    }
  });

  it('do not match a reply that only contains one', () => {
    for (const reply of ['TD谢谢', '请退订', 'T D', '退订了', '', 'OK', '收到']) expect(isUnsubscribeReply(reply, keywords), reply).toBe(false);
  });

  it('are read from the variable however separated, blanks dropped', () => {
    expect([...parseUnsubscribeKeywords(' 取消 ，ｂｙｅ、停止;;, STOP ')]).toEqual(['取消', 'BYE', '停止', 'STOP']);
    expect(parseUnsubscribeKeywords('').size).toBe(0);
  });
});

describe('a reply phone', () => {
  it('is the 11 digits of a mainland mobile, prefixes and separators dropped', () => {
    for (const phone of ['13800138000', '+8613800138000', '+86 138 0013 8000', '8613800138000', '0086-138-0013-8000']) {
      expect(normalizeReplyPhone(phone), phone).toBe('13800138000');
    }
  });

  it('is kept as given (cleaned, at most 32 characters) when it is no mainland mobile', () => {
    expect(normalizeReplyPhone('10086')).toBe('10086');
    expect(normalizeReplyPhone(' +44 7700 900123 ')).toBe('+44 7700 900123');
    expect(normalizeReplyPhone('12345678901')).toBe('12345678901');
    expect(normalizeReplyPhone('9'.repeat(40))).toBe('9'.repeat(32));
  });
});

describe('the requests', () => {
  it('take a reply upload and clean its text', () => {
    const parsed = deviceRepliesRequest.parse({ replies: [{ messageId: ' in-1 ', phone: '+86 13800138000', content: 'T\u0000D\n', receivedAt: 1795000000000 }] });
    expect(parsed.replies[0]).toEqual({ messageId: 'in-1', phone: '13800138000', content: 'TD', receivedAt: 1795000000000 });
    // content is never a reason to refuse: anything but a string reads as empty
    expect(deviceRepliesRequest.parse({ replies: [{ messageId: 'a', phone: '10086', content: 42, receivedAt: 1 }] }).replies[0].content).toBe('');
  });

  it('read the list filters: digits of a number without +86, 仅退订 from a form', () => {
    const query = replyListQuery.parse({ phone: '+86 139-0003', unsubscribedOnly: '1' });
    expect(query).toMatchObject({ phone: '1390003', unsubscribedOnly: true, content: '', taskName: '', machineName: '', start: '', end: '' });
    expect(replyListQuery.parse({}).unsubscribedOnly).toBe(false);
  });
});
