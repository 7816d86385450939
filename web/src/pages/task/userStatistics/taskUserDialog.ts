import { messages, Perm, type TaskUserStatistics } from '@huiyun/contract';
import { saveTaskUser } from '../../../api/statistics.ts';
import type { EditConfig } from '../../../components/ListPage/index.ts';

const m = messages.statistics;

// The save schema (and zod with it) loads with the dialog, not with the list.
const loadSchema = () => import('../../../api/saveSchemas.ts').then((s) => s.taskUserSave);

/** 新增账号: a task sub-account (an ordinary user of the caller's company) with its password; administrators add them. */
export function taskUserDialog(): EditConfig<TaskUserStatistics> {
  return {
    entityName: m.entityName,
    schema: loadSchema,
    fields: [
      { name: 'userName', label: m.userName },
      { name: 'passwd', label: m.passwd, type: 'password' },
    ],
    save: (values) => saveTaskUser({ userName: String(values.userName ?? '').trim(), passwd: String(values.passwd ?? '') }),
    failText: m.saveFailed,
    permission: Perm.taskUserSave,
    account: 'administrator',
    canEdit: false,
  };
}
