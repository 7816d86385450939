import { createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';

// WeChat Pay APIv2's wire rules: flat XML (<xml><k><![CDATA[v]]></k>…</xml>), the signature over the
// sorted non-empty fields except sign, joined k=v&…&key=KEY, MD5 or HMAC-SHA256 (keyed with the APIv2 key),
// upper-case hex; refund notifications' req_info is AES-256-ECB with key = lower-case hex md5(APIv2 key).

export type SignType = 'MD5' | 'HMAC-SHA256';
export type Fields = Record<string, string>;

export function signString(fields: Fields, key: string): string {
  const pairs = Object.keys(fields).filter((k) => k !== 'sign' && fields[k] !== undefined && fields[k] !== '').sort().map((k) => `${k}=${fields[k]}`);
  return `${pairs.join('&')}&key=${key}`;
}

export function sign(fields: Fields, key: string, type: SignType): string {
  const text = signString(fields, key);
  const digest = type === 'HMAC-SHA256' ? createHmac('sha256', key).update(text, 'utf8').digest('hex') : createHash('md5').update(text, 'utf8').digest('hex');
  return digest.toUpperCase();
}

/** The fields carry a valid sign under `key`; the type is the one given, or told by sign_type, or by the length (64 = HMAC). */
export function signatureValid(fields: Fields, key: string, type?: SignType): boolean {
  const given = String(fields.sign ?? '');
  if (!given) return false;
  const used: SignType = type ?? (fields.sign_type === 'HMAC-SHA256' || given.length === 64 ? 'HMAC-SHA256' : 'MD5');
  const expected = Buffer.from(sign(fields, key, used));
  const actual = Buffer.from(given.toUpperCase());
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

const parser = new XMLParser({ parseTagValue: false, trimValues: false, processEntities: true, ignoreDeclaration: true });
const builder = new XMLBuilder({ cdataPropName: '__cdata' });

/** A v2 XML body → its fields (text values as sent). Throws on anything not a flat <xml>. */
export function parseXml(xml: string): Fields {
  const doc = parser.parse(xml) as { xml?: Record<string, unknown> };
  if (!doc.xml || typeof doc.xml !== 'object') throw new Error('not a WeChat Pay XML body');
  const fields: Fields = {};
  for (const [k, v] of Object.entries(doc.xml)) if (typeof v === 'string' || typeof v === 'number') fields[k] = String(v);
  return fields;
}

export function toXml(fields: Fields): string {
  return `<xml>${builder.build(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { __cdata: v }])))}</xml>`;
}

/** A refund notification's req_info opened: AES-256-ECB, key = md5(APIv2 key) in lower-case hex. */
export function decryptReqInfo(reqInfo: string, apiV2Key: string): string {
  const key = createHash('md5').update(apiV2Key, 'utf8').digest('hex').toLowerCase();
  const decipher = createDecipheriv('aes-256-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([decipher.update(Buffer.from(reqInfo, 'base64')), decipher.final()]).toString('utf8');
}
