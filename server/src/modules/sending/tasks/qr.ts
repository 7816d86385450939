import { UploadKind } from '@huiyun/contract';
import type { AppContext } from '../../../context.ts';
import type { Access } from '../../../http/caller.ts';
import { downloadUrlOf, storeFile } from '../../../infra/file-storage.ts';

/**
 * 生成二维码: renders a QR code of `qrUrl` as a PNG, keeps it as a stored file of the caller
 * (sys_upload kind 'qr', under DATA_DIR/uploads) and answers the link /download/file serves it under.
 * qrcode is loaded by the first one, not as the server starts.
 */
export async function generateQrImage(ctx: AppContext, caller: Access, qrUrl: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  const png = await QRCode.toBuffer(qrUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
  const stored = await storeFile(ctx, { content: png, fileName: 'qrcode.png', kind: UploadKind.qr, userId: caller.userId, deptId: caller.deptId });
  return downloadUrlOf(stored.filePath);
}
