import type { FormRule as Rule } from 'antd';

/** Structural type of a zod schema (avoids a zod import in the web package). */
export type FieldSchema = {
  safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } };
};
/** Structural type of a zod object schema. */
export type ObjectSchemaLike = { shape: Record<string, FieldSchema> };

/** The first issue message of the field's contract schema, or null when the value passes. */
export function firstIssue(schema: FieldSchema, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error?.issues[0]?.message ?? null);
}

/** An antd Form rule that validates one field with the contract's zod schema. */
export function zodRule(schema: ObjectSchemaLike, field: string): Rule {
  const fieldSchema = schema.shape[field];
  return {
    validator: async (_rule, value) => {
      if (!fieldSchema) return;
      const issue = firstIssue(fieldSchema, value);
      if (issue) throw new Error(issue);
    },
  };
}

/** True when the schema refuses an empty value (the label then gets the required mark). */
export function isRequired(schema: ObjectSchemaLike | undefined, field: string): boolean {
  const fieldSchema = schema?.shape[field];
  return fieldSchema ? firstIssue(fieldSchema, undefined) !== null && firstIssue(fieldSchema, '') !== null : false;
}
