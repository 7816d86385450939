import { randomFillSync } from 'node:crypto';

// Identifiers made per sale (order numbers, the simulator's transaction numbers and notification ids)
// take their random part from a pool filled from the CSPRNG 4 KB at a time, as node's randomUUID does:
// each randomBytes() call goes to OpenSSL (a getpid and the DRBG), 7–14 µs on the development machine
// and up to ~40 µs under the terminal bench's load, three times a purchase. The bytes are as
// unpredictable; each is handed out once. Keys, salts and session tokens keep randomBytes: they are rare.

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** `bytes` random bytes as uppercase hex (2 × bytes characters). */
export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) throw new RangeError(`randomHex: at most ${POOL_BYTES} bytes`);
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes).toUpperCase();
  pool.fill(0, used, used + bytes); // a byte handed out leaves no copy behind
  used += bytes;
  return hex;
}
