export { FormDialog, type FormDialogProps } from './FormDialog.tsx';
export { SchemaField } from './SchemaField.tsx';
export { firstIssue, isRequired, zodRule, type FieldSchema, type ObjectSchemaLike } from './zodRule.ts';
