import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// X.509 for the fake WeChat Pay v2's HTTPS (node:crypto makes keys, not certificates): a CA of the
// fake's own, a server certificate for 127.0.0.1, and the merchant API certificate (apiclient_cert.p12,
// password = the merchant number, as WeChat issues it), made with the openssl command line at start.

export type FakeCertificates = { caPem: string; serverKey: string; serverCert: string; clientP12: Buffer; clientCertPem: string; clientKeyPem: string };

export function makeCertificates(merchantNo: string): FakeCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-wechat-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=Fake WeChat Pay CA');
    writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
    run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '30', '-extfile', 'server.ext');
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'client.key', '-out', 'client.csr', '-subj', `/CN=${merchantNo}/O=Tenpay.com`);
    run('x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '30');
    run('pkcs12', '-export', '-inkey', 'client.key', '-in', 'client.pem', '-out', 'client.p12', '-passout', `pass:${merchantNo}`);
    const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
    return {
      caPem: read('ca.pem'), serverKey: read('server.key'), serverCert: read('server.pem'), clientP12: readFileSync(path.join(dir, 'client.p12')),
      clientCertPem: read('client.pem'), clientKeyPem: read('client.key'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A self-signed certificate and its key (the fake WeChat Pay APIv3's platform certificate). */
export function selfSignedCertificate(commonName: string): { keyPem: string; certPem: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-wechat-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '30', '-subj', `/CN=${commonName}/O=Tenpay.com`], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    return { keyPem: readFileSync(path.join(dir, 'key.pem'), 'utf8'), certPem: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
