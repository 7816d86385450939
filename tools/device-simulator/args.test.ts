import { describe, expect, it } from 'vitest';
import { deviceCount, parseCliArgs, readCodeFile, UsageError } from './args.ts';

const base = ['--server', 'http://127.0.0.1:8080/'];

describe('parseCliArgs', () => {
  it('reads a code list and the rates, speed and stop rules', () => {
    const cli = parseCliArgs([...base, '--code', 'AAA1, bbb2,CCC3', '--count', '2', '--fail-rate', '0.2', '--speed', '10', '--until-idle', '--duration', '30']);
    expect(cli).toMatchObject({
      server: 'http://127.0.0.1:8080', codes: { kind: 'list', codes: ['AAA1', 'bbb2', 'CCC3'] }, count: 2, failRate: 0.2, speed: 10,
      untilIdle: true, durationMs: 30_000, duplicateRate: 0.02, lateRate: 0.01, reportEvery: 10, undeliveredRate: 0.05,
    });
    expect(parseCliArgs([...base, '--code', 'A', '--undelivered-rate', '0.5']).undeliveredRate).toBe(0.5);
  });

  it('takes speed 0 and max as no waiting', () => {
    expect(parseCliArgs([...base, '--code', 'A', '--speed', '0']).speed).toBe(Infinity);
    expect(parseCliArgs([...base, '--code', 'A', '--speed', 'max']).speed).toBe(Infinity);
  });

  it('reads @file as a code file and --admin as USER:PASSWORD with an owner', () => {
    expect(parseCliArgs([...base, '--code', '@codes.txt']).codes).toEqual({ kind: 'file', path: 'codes.txt' });
    expect(parseCliArgs([...base, '--admin', 'admin:pa:ss', '--owner', 'zhang', '--count', '3']).codes).toEqual({
      kind: 'admin', admin: 'admin', password: 'pa:ss', owner: 'zhang', quota: 100_000, days: 30,
    });
  });

  it.each([
    [['--code', 'A'], /--server/],
    [[...base], /authorization codes/],
    [[...base, '--code', 'A', '--fail-rate', '1.5'], /--fail-rate takes a probability/],
    [[...base, '--code', 'A', '--undelivered-rate', '2'], /--undelivered-rate takes a probability/],
    [[...base, '--code', 'A', '--speed', 'fast'], /--speed/],
    [[...base, '--code', 'A', '--count', '0'], /--count takes a whole number/],
    [[...base, '--admin', 'admin:x'], /--owner/],
    [[...base, '--admin', 'admin:x', '--owner', 'o', '--code', 'A'], /either --code or --admin/],
    [[...base, '--code', 'A', '--prefix', 'has space'], /--prefix/],
    [[...base, '--code', 'A', '--bogus'], /bogus/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});

describe('codes', () => {
  it('reads one code a line, skipping blanks and comments', () => {
    expect(readCodeFile('x', () => '# made today\r\nAAA1\n\n  BBB2  # second\nCCC3\n')).toEqual(['AAA1', 'BBB2', 'CCC3']);
  });

  it('refuses fewer codes than devices, with why', () => {
    expect(deviceCount(undefined, 3)).toBe(3);
    expect(deviceCount(2, 3)).toBe(2);
    expect(() => deviceCount(5, 2)).toThrow(UsageError);
    expect(() => deviceCount(5, 2)).toThrow('--count 5 needs 5 authorization codes, but 2 were given: one code activates one device');
  });
});
