import fs from 'node:fs';

// The phones file of `npm run phone -- --phones FILE`: one phone SIM a line,
//   CODE  ADDRESS  USER  PASSWORD  [SIM]  [NAME…]
// separated by spaces or tabs; the name is the rest of the line (it may hold spaces). Blank lines and
// # comments are skipped. One line is one device of the product, so two SIMs of one phone are two lines
// with two codes.

export type PhoneSeat = {
  /** The authorization code this phone SIM activates with. */
  code: string;
  /** The phone's Local Server, e.g. http://192.168.1.20:8080. */
  url: string;
  user: string;
  password: string;
  /** SMSGate's simNumber, 1-based. */
  sim: number;
  /** The device's name in 设备列表; default: the phone's own name and the SIM. */
  name: string | undefined;
  /** The phone's webhook signing key, when known beforehand (else the bridge sets one). */
  signingKey?: string;
};

export class PhonesFileError extends Error {}

/** Checks the fields every phone seat shares, whether from the command line or a file. */
export function checkSeat(seat: PhoneSeat, where: string): PhoneSeat {
  let url: URL;
  try {
    url = new URL(seat.url);
  } catch {
    throw new PhonesFileError(`${where}: not a URL: ${seat.url}`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new PhonesFileError(`${where}: the phone's address must be http:// or https:// (got ${seat.url})`);
  if (!/^[A-Za-z0-9-]{1,32}$/.test(seat.code)) throw new PhonesFileError(`${where}: not an authorization code: ${seat.code}`);
  if (!Number.isInteger(seat.sim) || seat.sim < 1 || seat.sim > 3) throw new PhonesFileError(`${where}: SIM must be 1, 2 or 3 (got ${seat.sim})`);
  if (!seat.user || !seat.password) throw new PhonesFileError(`${where}: the phone's user and password are required`);
  if (seat.name !== undefined && seat.name.length > 100) throw new PhonesFileError(`${where}: the name is longer than 100 characters`);
  return { ...seat, url: url.toString().replace(/\/+$/, '') };
}

export function parsePhonesFile(text: string, file = 'phones file'): PhoneSeat[] {
  const seats: PhoneSeat[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const where = `${file}:${i + 1}`;
    const fields = line.split(/[ \t]+/);
    if (fields.length < 4) throw new PhonesFileError(`${where}: expected CODE ADDRESS USER PASSWORD [SIM] [NAME], got ${fields.length} field(s)`);
    const [code, url, user, password, sim, ...name] = fields;
    seats.push(checkSeat({ code, url, user, password, sim: sim === undefined ? 1 : Number(sim), name: name.length ? name.join(' ') : undefined }, where));
  }
  if (seats.length === 0) throw new PhonesFileError(`${file}: no phone in it (one a line: CODE ADDRESS USER PASSWORD [SIM] [NAME])`);
  const codes = new Set<string>();
  const sims = new Set<string>();
  for (const seat of seats) {
    if (codes.has(seat.code.toUpperCase())) throw new PhonesFileError(`${file}: the code ${seat.code} is given twice (one code activates one device)`);
    if (sims.has(`${seat.url} ${seat.sim}`)) throw new PhonesFileError(`${file}: ${seat.url} SIM ${seat.sim} is given twice`);
    codes.add(seat.code.toUpperCase());
    sims.add(`${seat.url} ${seat.sim}`);
  }
  return seats;
}

export function readPhonesFile(path: string): PhoneSeat[] {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    throw new PhonesFileError(`--phones ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  return parsePhonesFile(text, path);
}
