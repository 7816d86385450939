import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from './args.ts';
import { parsePhonesFile, PhonesFileError } from './phones-file.ts';

describe('phones file', () => {
  it('reads one phone SIM a line, with comments, default SIM and a name with spaces', () => {
    const seats = parsePhonesFile([
      '# code address user password sim name',
      'AAAA1111BBBB http://192.168.1.20:8080 sms pw1 1 销售部-小米13',
      '',
      'CCCC2222DDDD http://192.168.1.20:8080/ sms pw1 2 销售部 小米13 卡2  # second SIM',
      'EEEE3333FFFF http://192.168.1.21:8080 sms pw2',
    ].join('\n'));
    expect(seats).toEqual([
      { code: 'AAAA1111BBBB', url: 'http://192.168.1.20:8080', user: 'sms', password: 'pw1', sim: 1, name: '销售部-小米13' },
      { code: 'CCCC2222DDDD', url: 'http://192.168.1.20:8080', user: 'sms', password: 'pw1', sim: 2, name: '销售部 小米13 卡2' },
      { code: 'EEEE3333FFFF', url: 'http://192.168.1.21:8080', user: 'sms', password: 'pw2', sim: 1, name: undefined },
    ]);
  });

  it('refuses short lines, bad SIMs, a code twice and a SIM twice, naming the line', () => {
    expect(() => parsePhonesFile('A1 http://p:8080 sms', 'f')).toThrow(/f:1: expected CODE ADDRESS/);
    expect(() => parsePhonesFile('A1 http://p:8080 sms pw 4', 'f')).toThrow(/f:1: SIM must be 1, 2 or 3/);
    expect(() => parsePhonesFile('A1 ftp://p sms pw', 'f')).toThrow(PhonesFileError);
    expect(() => parsePhonesFile('A1 http://p:8080 sms pw\nA1 http://q:8080 sms pw', 'f')).toThrow(/code A1 is given twice/);
    expect(() => parsePhonesFile('A1 http://p:8080 sms pw 1\nB2 http://p:8080 sms pw 1', 'f')).toThrow(/SIM 1 is given twice/);
    expect(() => parsePhonesFile('# nothing\n', 'f')).toThrow(/no phone/);
  });
});

describe('command line', () => {
  it('takes one phone from the options, user sms by default', () => {
    const cli = parseCliArgs(['--server', 'http://127.0.0.1:8080/', '--code', 'ABCD1234EFGH', '--phone', 'http://192.168.1.20:8080', '--password', 'x', '--sim', '2', '--name', '小米']);
    expect(cli).toMatchObject({ server: 'http://127.0.0.1:8080', stateDir: './data/phone-bridge', webhookUrl: undefined });
    expect(cli.phones).toEqual([{ code: 'ABCD1234EFGH', url: 'http://192.168.1.20:8080', user: 'sms', password: 'x', sim: 2, name: '小米', signingKey: undefined }]);
  });

  it('takes a phones file instead, and refuses mixing it with single-phone options', () => {
    const read = () => [{ code: 'A', url: 'http://p', user: 'u', password: 'p', sim: 1, name: undefined }];
    expect(parseCliArgs(['--server', 'http://s', '--phones', 'f.txt'], read).phones).toHaveLength(1);
    expect(() => parseCliArgs(['--server', 'http://s', '--phones', 'f.txt', '--sim', '2'], read)).toThrow(/leave out --sim/);
  });

  it('listens for webhooks on the port of --webhook-url unless told otherwise', () => {
    const base = ['--server', 'http://s', '--code', 'ABCD', '--phone', 'http://p:8080', '--password', 'x'];
    expect(parseCliArgs([...base, '--webhook-url', 'http://127.0.0.1:9090/hooks']).webhookListen).toEqual({ host: '127.0.0.1', port: 9090 });
    expect(parseCliArgs([...base, '--webhook-url', 'https://bridge.example.com/h', '--webhook-listen', '0.0.0.0:8443']).webhookListen).toEqual({ host: '0.0.0.0', port: 8443 });
    expect(() => parseCliArgs([...base, '--webhook-listen', '0.0.0.0:1'])).toThrow(UsageError);
  });

  it('says what is missing', () => {
    expect(() => parseCliArgs([])).toThrow(/--server URL is required/);
    expect(() => parseCliArgs(['--server', 'http://s', '--code', 'ABCD', '--phone', 'http://p'])).toThrow(/--password is required/);
    expect(() => parseCliArgs(['--server', 'http://s', '--code', 'ABCD', '--phone', 'http://p', '--password', 'x', '--sim', '9'])).toThrow(/SIM must be/);
  });
});
