import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { UploadKind, type UploadResultItem } from '@huiyun/contract';
import { errorText } from '../../api/client.ts';
import { storedFileUrl, uploadFile } from '../../api/files.ts';

import type { StoredNumberFile } from '../../api/types.ts';
import { useToast } from '../../shared/toast.tsx';

export type { StoredNumberFile };

type Options<R> = {
  /** The server call that reads the stored file; answers its result and success text. */
  submit: (file: StoredNumberFile) => Promise<{ result: R; msg: string }>;
  /** The list reloaded after a success. */
  queryKey: string;
  failText: string;
};

/**
 * 上传号码 in two steps: the .txt goes to /upload/files with a progress bar, then `submit` hands its
 * fileNo to the call that reads it. Shows the server's texts; keeps the last result to show.
 */
export function useNumberFileUpload<R>({ submit, queryKey, failText }: Options<R>) {
  const message = useToast();
  const queryClient = useQueryClient();
  const [percent, setPercent] = useState<number | null>(null);
  const [result, setResult] = useState<R | null>(null);

  const reset = useCallback(() => {
    setPercent(null);
    setResult(null);
  }, []);

  const send = async (file: File) => {
    setResult(null);
    setPercent(0);
    try {
      const [stored] = await uploadFile(file, UploadKind.numbers, setPercent, failText);
      if (!stored) throw new Error(failText);
      const answer = await submit(toStoredNumberFile(stored));
      void message.success(answer.msg);
      setResult(answer.result);
      await queryClient.invalidateQueries({ queryKey: [queryKey] });
    } catch (error) {
      const text = errorText(error, failText);
      if (text) void message.error(text);
    } finally {
      setPercent(null);
    }
  };

  return { percent, result, send, reset };
}

function toStoredNumberFile(stored: UploadResultItem): StoredNumberFile {
  return { fileNo: stored.fileNo, fileName: stored.fileName, fileUrl: storedFileUrl(stored.filePath) };
}
