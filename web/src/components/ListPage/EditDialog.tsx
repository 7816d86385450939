import { fill, messages } from '@huiyun/contract';
import { FormDialog, SchemaField } from '../FormDialog/index.ts';
import { FieldInput } from './FieldInput.tsx';
import { useServerAction } from './useServerAction.ts';
import type { EditConfig } from './types.ts';
import type { Entity } from '../../api/queryKeys.ts';

type Props<Row> = {
  name: string;
  queryKey: Entity;
  config: EditConfig<Row>;
  open: boolean;
  editing: Row | null;
  onClose: () => void;
};

/** The add / edit dialog: fields and rules from the config, save → server text → close + reload. */
export function EditDialog<Row extends object>({ name, queryKey, config, open, editing, onClose }: Props<Row>) {
  const saver = useServerAction(queryKey, (input: { values: Record<string, unknown>; editing: Row | null }) =>
    config.save(input.values, input.editing),
  );
  const values = editing ? (config.toFormValues?.(editing) ?? { ...editing }) : (config.initialValues ?? {});

  return (
    <FormDialog<Record<string, unknown>>
      open={open}
      title={fill(editing ? messages.common.editTitle : messages.common.addTitle, { name: config.entityName })}
      name={name}
      schema={config.schema}
      values={values}
      onFinish={(formValues) => saver.run({ values: formValues, editing }, config.failText)}
      onClose={onClose}
    >
      {config.fields.map((field) => (
        <SchemaField key={field.name} name={field.name} label={field.label}>
          <FieldInput field={field} disabled={Boolean(editing && field.readOnlyOnEdit)} />
        </SchemaField>
      ))}
    </FormDialog>
  );
}
