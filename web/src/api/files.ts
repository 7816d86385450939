// Stored files (SPEC §7.1): /upload/files with progress, and the links /download/file serves.
import type { UploadKind, UploadResultItem } from '@huiyun/contract';
import { getToken } from '../shared/session.ts';
import { ApiError, readEnvelope } from './client.ts';

/** The link /download/file serves a stored file under (what the server keeps in imgUrl). */
export const storedFileUrl = (filePath: string) => `/download/file?filePath=${encodeURIComponent(filePath)}`;

/** A stored file's link with the session token, for an <img> or a link (they cannot send a header). */
export function fileUrlWithToken(url: string): string {
  const token = getToken();
  if (!url.startsWith('/download/') || !token) return url;
  return `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}

/**
 * POST /upload/files (multipart field `file`) with upload progress, which fetch cannot report.
 * Answers the stored files (SPEC §3 Upload result).
 */
export function uploadFile(file: Blob & { name?: string }, kind: UploadKind, onProgress: (percent: number) => void, failText: string): Promise<UploadResultItem[]> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/upload/files?kind=${encodeURIComponent(kind)}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('token', token);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError(failText, 0));
    xhr.onload = () => {
      let envelope: unknown = null;
      try {
        envelope = JSON.parse(xhr.responseText);
      } catch {
        envelope = null;
      }
      try {
        resolve(readEnvelope<UploadResultItem[] | null>(xhr.status, envelope, { failText, token }).data ?? []);
      } catch (error) {
        reject(error);
      }
    };
    const form = new FormData();
    form.append('kind', kind);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
