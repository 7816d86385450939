import { createContext, useContext } from 'react';
import { Form, type FormItemProps, type FormRule } from 'antd';
import { isRequired, zodRule, type ObjectSchemaLike } from './zodRule.ts';

/** The zod schema of the surrounding FormDialog. */
export const SchemaContext = createContext<ObjectSchemaLike | undefined>(undefined);

type Props = Omit<FormItemProps, 'name' | 'rules'> & {
  name: string;
  /** Checked before the schema's rule (e.g. the screen's own text for an empty value). */
  rules?: FormRule[];
  /** Checked after it (e.g. a rule across two fields). */
  rulesAfter?: FormRule[];
  /** Another schema than the dialog's. */
  schema?: ObjectSchemaLike;
};

/** A Form.Item whose rule and required mark come from the contract's zod schema (SPEC §8 texts). */
export function SchemaField({ name, rules = [], rulesAfter = [], schema: ownSchema, required, ...props }: Props) {
  const dialogSchema = useContext(SchemaContext);
  const schema = ownSchema ?? dialogSchema;
  return (
    <Form.Item
      name={name}
      required={required ?? isRequired(schema, name)}
      rules={[...rules, ...(schema ? [zodRule(schema, name)] : []), ...rulesAfter]}
      validateFirst
      {...props}
    />
  );
}
