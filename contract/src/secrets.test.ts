import { describe, expect, it } from 'vitest';
import { isMaskOf, maskSecret } from './secrets.ts';

describe('maskSecret', () => {
  it('shows first 4 and last 4 of a long secret', () => {
    expect(maskSecret('abcd1234efgh5678')).toBe('abcd******5678');
    expect(maskSecret('abcdefghijkl')).toBe('abcd******ijkl');
  });
  it('shows only the last 3 of a shorter one, nothing of a very short one', () => {
    expect(maskSecret('abcdefghijk')).toBe('******ijk');
    expect(maskSecret('abcdef')).toBe('******def');
    expect(maskSecret('abcde')).toBe('******');
    expect(maskSecret('')).toBe('******');
  });
  it('never returns the secret itself', () => {
    for (const s of ['a', 'abc', 'abcdef', 'abcdefghijkl', 'x'.repeat(64)]) expect(maskSecret(s)).not.toBe(s);
  });
  it('recognises the mask sent back unchanged', () => {
    expect(isMaskOf('abcd******5678', 'abcd1234efgh5678')).toBe(true);
    expect(isMaskOf('abcd******5679', 'abcd1234efgh5678')).toBe(false);
    expect(isMaskOf('abcd1234efgh5678', 'abcd1234efgh5678')).toBe(false);
  });
});
