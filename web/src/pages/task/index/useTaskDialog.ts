import { useEffect, useState } from 'react';
import { Form } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fill, messages, ShowType, showTypeFields, taskQrRequest, UploadKind, type Task, type TaskSave } from '@huiyun/contract';
import { storedFileUrl, uploadFile } from '../../../api/files.ts';
import { queryKeys, type Entity } from '../../../api/queryKeys.ts';
import { generateQrImage, listUserDevices, saveTask } from '../../../api/task.ts';
import { firstIssue } from '../../../components/FormDialog/index.ts';
import { useServerAction } from '../../../shared/useServerAction.ts';
import { noChosenDeviceCanSend, taskDefaults, toFormValues, toSaveInput, type TaskFormValues } from './taskForm.ts';
import { useToast } from '../../../shared/toast.tsx';

const m = messages.task;

export type TaskDialogOptions = {
  open: boolean;
  editing: Task | null;
  /** The caller's own userId: another owner's task lists that owner's devices. */
  currentUserId: number | undefined;
  queryKey: Entity;
};

/** The state and rules of 新增任务 / 编辑任务: fields per showType, devices, media upload, QR preview, save. */
export function useTaskDialog({ open, editing, currentUserId, queryKey }: TaskDialogOptions) {
  const [form] = Form.useForm<TaskFormValues>();
  const showType = (Form.useWatch('showType', form) as number | undefined) ?? ShowType.text;
  const saver = useServerAction(queryKey, saveTask);
  const chosen = Form.useWatch('machineCodeList', form) as string[] | undefined;
  const devices = useTaskDevices(open, editing, currentUserId, chosen, showType);
  const media = useMediaUpload(open, showType === ShowType.file, form);
  const qr = useQrPreview(() => String(form.getFieldValue('qrUrl') ?? '').trim());

  const save = (values: TaskFormValues) => saver.run(toSaveInput(values, editing) as Partial<TaskSave>, m.saveFailed);

  return {
    form,
    title: fill(editing ? messages.common.editTitle : messages.common.addTitle, { name: m.entityName }),
    values: editing ? toFormValues(editing) : taskDefaults,
    showType,
    shows: showTypeFields(showType),
    isFile: showType === ShowType.file,
    devices,
    media,
    qr,
    save,
  };
}

/** The devices the task may use: the caller's, or (editing another owner's task) that owner's. */
function useTaskDevices(open: boolean, editing: Task | null, currentUserId: number | undefined, chosen: string[] | undefined, showType: number) {
  const ownerId = editing && editing.userId !== currentUserId ? editing.userId : undefined;
  const devices = useQuery({
    queryKey: queryKeys.options('device', ownerId ?? 'me'),
    queryFn: () => listUserDevices(ownerId),
    enabled: open,
    retry: false,
    meta: { errorText: m.deviceLoadFailed },
  });
  const options = (devices.data ?? []).map((d) => ({ value: d.machineCode, label: d.machineName ? `${d.machineName} (${d.machineCode})` : d.machineCode }));
  return { options, loading: devices.isFetching, cannotSend: noChosenDeviceCanSend(devices.data ?? [], chosen, showType) };
}

type FormLike = {
  setFieldsValue: (values: Partial<TaskFormValues>) => void;
  validateFields: (names: (keyof TaskFormValues)[]) => Promise<unknown>;
};

/** The task's image (showType 2, 3) or file (4): upload with progress, then the form holds where it is. */
function useMediaUpload(open: boolean, isFile: boolean, form: FormLike) {
  const [percent, setPercent] = useState<number | null>(null);
  useEffect(() => {
    if (open) setPercent(null);
  }, [open]);
  const uploader = useServerAction(
    null,
    async (file: File) => {
      const [stored] = await uploadFile(file, isFile ? UploadKind.file : UploadKind.image, setPercent, m.uploadFailed);
      if (!stored) throw new Error(m.uploadFailed);
      return stored;
    },
    {
      onDone: (stored) => {
        form.setFieldsValue({ fileNo: stored.fileNo, fileName: stored.fileName, imgUrl: storedFileUrl(stored.filePath) });
        void form.validateFields(['imgUrl']).catch(() => undefined);
      },
    },
  );

  const upload = async (file: File) => {
    setPercent(0);
    await uploader.run(file, m.uploadFailed);
    setPercent(null);
  };
  return { percent, upload };
}

/** 生成二维码: checks the link, asks the server for the image, shows it in a dialog. */
function useQrPreview(currentUrl: () => string) {
  const message = useToast();
  const [url, setUrl] = useState<string | null>(null);
  const generator = useServerAction(null, generateQrImage, { successText: (answer) => answer.msg, onDone: (answer) => setUrl(answer.url) });

  const generate = async () => {
    const qrUrl = currentUrl();
    const issue = firstIssue(taskQrRequest.shape.qrUrl, qrUrl);
    if (issue) {
      void message.warning(issue);
      return;
    }
    await generator.run(qrUrl, m.qrFailed);
  };
  return { url, pending: generator.pending, generate, close: () => setUrl(null) };
}
