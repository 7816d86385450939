import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// X.509 for the fake WeChat Pay v2's HTTPS (node:crypto makes keys, not certificates): a CA of the
// fake's own, a server certificate for 127.0.0.1, and the merchant API certificate (apiclient_cert.p12,
// password = the merchant number, as WeChat issues it), made with the openssl command line at start.
// The three RSA keys are made once a process (a key costs ~0.1–0.3 s of CPU; the suite starts a fake many
// times): each merchant gets a certificate of its own, issued anew for its number.

export type FakeCertificates = { caPem: string; serverKey: string; serverCert: string; clientP12: Buffer; clientCertPem: string; clientKeyPem: string };

type Authority = { caKey: string; caPem: string; serverKey: string; serverCert: string; clientKey: string };
let authority: Authority | undefined;

function inTempDir<T>(work: (run: (...args: string[]) => void, read: (file: string) => string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-wechat-'));
  const run = (...args: string[]) => void execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    return work(run, (file) => readFileSync(path.join(dir, file), 'utf8'), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fake's CA, its server certificate for 127.0.0.1 and the key merchants' certificates are issued for. */
function fakeAuthority(): Authority {
  authority ??= inTempDir((run, read, dir) => {
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=Fake WeChat Pay CA');
    writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
    run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '30', '-extfile', 'server.ext');
    run('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'client.key');
    return { caKey: read('ca.key'), caPem: read('ca.pem'), serverKey: read('server.key'), serverCert: read('server.pem'), clientKey: read('client.key') };
  });
  return authority;
}

export function makeCertificates(merchantNo: string): FakeCertificates {
  const { caKey, caPem, serverKey, serverCert, clientKey } = fakeAuthority();
  return inTempDir((run, read, dir) => {
    for (const [file, text] of [['ca.key', caKey], ['ca.pem', caPem], ['client.key', clientKey]]) writeFileSync(path.join(dir, file), text);
    run('req', '-new', '-key', 'client.key', '-out', 'client.csr', '-subj', `/CN=${merchantNo}/O=Tenpay.com`);
    run('x509', '-req', '-in', 'client.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.pem', '-days', '30');
    run('pkcs12', '-export', '-inkey', 'client.key', '-in', 'client.pem', '-out', 'client.p12', '-passout', `pass:${merchantNo}`);
    return { caPem, serverKey, serverCert, clientP12: readFileSync(path.join(dir, 'client.p12')), clientCertPem: read('client.pem'), clientKeyPem: clientKey };
  });
}

/** A self-signed certificate and its key (the fake WeChat Pay APIv3's platform certificate). */
export function selfSignedCertificate(commonName: string): { keyPem: string; certPem: string } {
  return inTempDir((run, read) => {
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '30', '-subj', `/CN=${commonName}/O=Tenpay.com`);
    return { keyPem: read('key.pem'), certPem: read('cert.pem') };
  });
}
