import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local S3 for the tests (loopback only), speaking the S3 REST wire format the SDK uses, path-style:
// PutObject, GetObject, HeadObject, DeleteObject, the multipart upload (Create, UploadPart, Complete,
// Abort) and ListMultipartUploads, with S3's XML errors. Every request must carry a SigV4 Authorization
// header for the configured access key (the signature itself is not recomputed). Objects are held in
// memory; `down()` makes it refuse connections as an unreachable bucket would.

export type FakeS3 = {
  url: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, Buffer>;
  /** Multipart uploads begun and neither completed nor aborted. */
  openUploads: () => number;
  /** Requests seen, by operation (e.g. 'PutObject', 'UploadPart'). */
  calls: Map<string, number>;
  /** Stops answering (connections refused) until `up()`. */
  down: () => Promise<void>;
  up: () => Promise<void>;
  close: () => Promise<void>;
};

type Upload = { key: string; parts: Map<number, Buffer>; initiated: Date };

export async function startFakeS3(options: { bucket?: string } = {}): Promise<FakeS3> {
  const bucket = options.bucket ?? 'huiyun-test';
  const accessKeyId = 'FAKEACCESSKEY';
  const secretAccessKey = 'fake-secret-key';
  const objects = new Map<string, Buffer>();
  const uploads = new Map<string, Upload>();
  const calls = new Map<string, number>();
  const count = (op: string) => calls.set(op, (calls.get(op) ?? 0) + 1);

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://s3.local');
    const [, bucketName, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const q = url.searchParams;
    const body = await readBody(req);
    const fail = (status: number, code: string, message: string) => {
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><Resource>${url.pathname}</Resource><RequestId>${randomUUID()}</RequestId></Error>`);
    };
    const xml = (text: string) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>${text}`);
    };
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`)) return fail(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    if (bucketName !== bucket) return fail(404, 'NoSuchBucket', 'The specified bucket does not exist');
    const etag = (bytes: Buffer) => `"${createHash('md5').update(bytes).digest('hex')}"`;

    if (req.method === 'GET' && !key && q.has('uploads')) {
      count('ListMultipartUploads');
      const prefix = q.get('prefix') ?? '';
      const listed = [...uploads].filter(([, u]) => u.key.startsWith(prefix))
        .map(([id, u]) => `<Upload><Key>${u.key}</Key><UploadId>${id}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated></Upload>`).join('');
      return xml(`<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${listed}</ListMultipartUploadsResult>`);
    }
    if (!key) return fail(400, 'InvalidRequest', 'A key is required');
    if (req.method === 'POST' && q.has('uploads')) {
      count('CreateMultipartUpload');
      const id = randomUUID();
      uploads.set(id, { key, parts: new Map(), initiated: new Date() });
      return xml(`<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
    }
    const uploadId = q.get('uploadId');
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload || upload.key !== key) return fail(404, 'NoSuchUpload', 'The specified upload does not exist.');
      if (req.method === 'PUT') {
        count('UploadPart');
        const part = Number(q.get('partNumber'));
        upload.parts.set(part, body);
        res.writeHead(200, { etag: etag(body) });
        return res.end();
      }
      if (req.method === 'POST') {
        count('CompleteMultipartUpload');
        const numbers = [...body.toString('utf8').matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        if (numbers.length === 0 || numbers.some((n) => !upload.parts.has(n))) return fail(400, 'InvalidPart', 'One or more of the specified parts could not be found.');
        objects.set(key, Buffer.concat(numbers.map((n) => upload.parts.get(n)!)));
        uploads.delete(uploadId);
        return xml(`<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>${etag(objects.get(key)!)}</ETag></CompleteMultipartUploadResult>`);
      }
      if (req.method === 'DELETE') {
        count('AbortMultipartUpload');
        uploads.delete(uploadId);
        res.writeHead(204);
        return res.end();
      }
    }
    if (req.method === 'PUT') {
      count('PutObject');
      objects.set(key, body);
      res.writeHead(200, { etag: etag(body) });
      return res.end();
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      count(req.method === 'GET' ? 'GetObject' : 'HeadObject');
      const object = objects.get(key);
      if (!object) {
        if (req.method === 'HEAD') { res.writeHead(404); return res.end(); }
        return fail(404, 'NoSuchKey', 'The specified key does not exist.');
      }
      res.writeHead(200, { 'content-length': String(object.length), etag: etag(object), 'content-type': 'application/octet-stream' });
      return res.end(req.method === 'GET' ? object : undefined);
    }
    if (req.method === 'DELETE') {
      count('DeleteObject');
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    return fail(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const stop = () => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  return {
    url: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    openUploads: () => uploads.size,
    calls,
    down: stop,
    up: () => listen(port),
    close: async () => { if (server.listening) await stop(); },
  };
}

/** The environment that points a server's file store at the fake. */
export const fakeS3Env = (s3: FakeS3, prefix = ''): Record<string, string> => ({
  FILE_STORE: 's3',
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.url,
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_PREFIX: prefix,
});

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
