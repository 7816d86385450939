import { describe, expect, it } from 'vitest';
import { messages, passwordChangeRequest, variableSave } from '@huiyun/contract';
import { isRequired, zodRule } from './zodRule.ts';

type Validator = (rule: unknown, value: unknown) => Promise<void>;
const validate = (field: string, value: unknown) =>
  ((zodRule(variableSave, field) as { validator: Validator }).validator)({}, value);

describe('zodRule', () => {
  it('answers the field schema first message', async () => {
    await expect(validate('varName', undefined)).rejects.toThrow(messages.variable.varNameRequired);
    await expect(validate('varName', '  ')).rejects.toThrow(messages.variable.varNameRequired);
    await expect(validate('varName', 'has space')).rejects.toThrow(messages.variable.varNameFormat);
    await expect(validate('varName', 'ok.name_1')).resolves.toBeUndefined();
  });

  it('works on refined object schemas too', async () => {
    const rule = zodRule(passwordChangeRequest, 'passwd') as { validator: Validator };
    await expect(rule.validator({}, '123')).rejects.toThrow(messages.password.tooShort);
  });

  it('marks the fields that refuse an empty value as required', () => {
    expect(isRequired(variableSave, 'varLable')).toBe(true);
    expect(isRequired(variableSave, 'varId')).toBe(false);
    expect(isRequired(undefined, 'varLable')).toBe(false);
  });
});
