import fs from 'node:fs';
import { run } from './run.ts';

// The end-to-end tests drive Debian's Chromium (never a downloaded browser). Install it when we
// are root on Debian; otherwise stop with the one line that fixes it.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!fs.existsSync(chromium)) {
  const isRoot = process.getuid?.() === 0;
  const hasApt = fs.existsSync('/usr/bin/apt-get');
  if (!isRoot || !hasApt) {
    console.error(`Chromium not found at ${chromium}: run \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH) and try again.`);
    process.exit(1);
  }
  console.log('Chromium is missing: installing Debian\'s chromium package…');
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['update', '-qq'], env) !== 0 || run('apt-get', ['install', '-y', '-qq', 'chromium'], env) !== 0 || !fs.existsSync(chromium)) {
    console.error('Installing chromium failed: run `apt-get install -y chromium` by hand and try again.');
    process.exit(1);
  }
}
