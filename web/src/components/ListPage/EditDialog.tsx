import { use } from 'react';
import { fill, messages } from '@huiyun/contract';
import { FormDialog, SchemaField } from '../FormDialog/index.ts';
import { FieldInput } from './FieldInput.tsx';
import { useServerAction } from '../../shared/useServerAction.ts';
import type { FieldsEdit } from './types.ts';
import type { ObjectSchemaLike } from '../FormDialog/zodRule.ts';
import type { Entity } from '../../api/queryKeys.ts';

type Props<Row> = {
  name: string;
  queryKey: Entity;
  config: FieldsEdit<Row>;
  open: boolean;
  editing: Row | null;
  onClose: () => void;
};

type SchemaLoader = () => Promise<ObjectSchemaLike>;
const loaded = new WeakMap<SchemaLoader, Promise<ObjectSchemaLike>>();

/** One promise per loader, so the dialog suspends (inside ListPage's Suspense) only until the first load. */
function schemaOf(load: SchemaLoader): Promise<ObjectSchemaLike> {
  let schema = loaded.get(load);
  if (!schema) {
    schema = load();
    loaded.set(load, schema);
  }
  return schema;
}

/** The add / edit dialog: fields and rules from the config, save → server text → close + reload. */
export function EditDialog<Row extends object>({ name, queryKey, config, open, editing, onClose }: Props<Row>) {
  const saver = useServerAction(queryKey, (input: { values: Record<string, unknown>; editing: Row | null }) =>
    config.save(input.values, input.editing),
  );
  const schema = config.schema ? use(schemaOf(config.schema)) : undefined;
  const values = editing ? (config.toFormValues?.(editing) ?? { ...editing }) : (config.initialValues ?? {});

  return (
    <FormDialog<Record<string, unknown>>
      open={open}
      title={fill(editing ? messages.common.editTitle : messages.common.addTitle, { name: config.entityName })}
      name={name}
      schema={schema}
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
