import { useCallback, useState } from 'react';
import { UploadKind, type UploadResultItem } from '@huiyun/contract';
import { storedFileUrl, uploadFile } from '../../api/files.ts';
import type { Entity } from '../../api/queryKeys.ts';
import type { StoredNumberFile } from '../../api/types.ts';
import { useServerAction } from '../../shared/useServerAction.ts';

export type { StoredNumberFile };

type Options<R> = {
  /** The server call that reads the stored file; answers its result and success text. */
  submit: (file: StoredNumberFile) => Promise<{ result: R; msg: string }>;
  /** The entity whose lists reload after a success. */
  queryKey: Entity;
  failText: string;
};

/**
 * 上传号码 in two steps: the .txt goes to /upload/files with a progress bar, then `submit` hands its
 * fileNo to the call that reads it. Shows the server's texts; keeps the last result to show.
 */
export function useNumberFileUpload<R>({ submit, queryKey, failText }: Options<R>) {
  const [percent, setPercent] = useState<number | null>(null);
  const [result, setResult] = useState<R | null>(null);

  const reset = useCallback(() => {
    setPercent(null);
    setResult(null);
  }, []);

  const sender = useServerAction(
    queryKey,
    async (file: File) => {
      const [stored] = await uploadFile(file, UploadKind.numbers, setPercent, failText);
      if (!stored) throw new Error(failText);
      return submit(toStoredNumberFile(stored));
    },
    { successText: (answer) => answer.msg, onDone: (answer) => setResult(answer.result) },
  );

  const send = async (file: File) => {
    setResult(null);
    setPercent(0);
    await sender.run(file, failText);
    setPercent(null);
  };

  return { percent, result, send, reset };
}

function toStoredNumberFile(stored: UploadResultItem): StoredNumberFile {
  return { fileNo: stored.fileNo, fileName: stored.fileName, fileUrl: storedFileUrl(stored.filePath) };
}
