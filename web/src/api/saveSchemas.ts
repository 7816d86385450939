// The contract's save schemas of the list screens' add / edit dialogs (ListPage `edit.schema`). Imported
// only dynamically, when a dialog first opens, so zod stays off a list screen's first load.
export { blacklistAdd, deptSave, machineSave, permissionSave, taskUserSave, userSave, variableSave } from '@huiyun/contract';
