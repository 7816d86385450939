import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3StoreConfig } from '../config.ts';
import { FileStoreUnavailableError } from './dependency-faults.ts';
import { PARTIAL_ORPHAN_MS, type FileStore, type StoredBytes } from './file-store.ts';

// Stored files in an S3-compatible bucket (AWS S3, MinIO, Aliyun OSS, Tencent COS), shared by every host.
// - A write streams through lib-storage's multipart upload: at most QUEUE parts of PART_BYTES are held in
//   memory whatever the file's size, and the object appears only when the upload completes (a failed one
//   is aborted), so a key is never half there.
// - Checksums only where S3 requires them: the SDK's newer default (a CRC in an aws-chunked trailer on
//   every upload) is refused by several S3-compatible services.
// - Anything the bucket cannot answer (unreachable, refused, a 5xx) is a FileStoreUnavailableError: the
//   request answers 503 with its message and nothing of the work it belonged to is kept.

const PART_BYTES = 8 * 1024 * 1024;
const QUEUE = 2;

export class S3FileStore implements FileStore {
  readonly kind = 's3';
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(config: S3StoreConfig) {
    this.#client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    });
    this.#bucket = config.bucket;
    this.#prefix = config.prefix;
  }

  localPath(): null {
    return null;
  }

  async write(key: string, source: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: this.#prefix + key, Body: source, ContentType: contentType },
      partSize: PART_BYTES,
      queueSize: QUEUE,
      leavePartsOnError: false,
    });
    let sourceError: unknown;
    source.once('error', (error) => { sourceError = error; });
    try {
      await upload.done();
    } catch (error) {
      // the source's own refusal (too large, not text) is the caller's answer, not the store's
      throw sourceError ?? storeFailure(error);
    }
    if (sourceError) throw sourceError;
  }

  async read(key: string): Promise<StoredBytes | null> {
    try {
      const answer = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: this.#prefix + key }));
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw storeFailure(error);
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#prefix + key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw storeFailure(error);
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#prefix + key }));
    } catch (error) {
      if (!isMissing(error)) throw storeFailure(error);
    }
  }

  /** Multipart uploads of this deployment begun over an hour ago and never completed (their process died). */
  async sweepPartials(): Promise<number> {
    let removed = 0;
    try {
      const listed = await this.#client.send(new ListMultipartUploadsCommand({ Bucket: this.#bucket, Prefix: this.#prefix }));
      for (const upload of listed.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || Date.now() - upload.Initiated.getTime() < PARTIAL_ORPHAN_MS) continue;
        await this.#client.send(new AbortMultipartUploadCommand({ Bucket: this.#bucket, Key: upload.Key, UploadId: upload.UploadId }));
        removed += 1;
      }
    } catch (error) {
      throw storeFailure(error);
    }
    return removed;
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
}

function storeFailure(error: unknown): FileStoreUnavailableError {
  const status = error instanceof S3ServiceException ? ` (${error.name}, HTTP ${error.$metadata.httpStatusCode ?? '?'})` : '';
  return new FileStoreUnavailableError(`S3 bucket: ${(error as Error)?.message ?? String(error)}${status}`, { cause: error });
}
