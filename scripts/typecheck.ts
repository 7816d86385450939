// `npm run typecheck`: the server's and the console's TypeScript projects, checked at the same time (each tsc
// uses one core; one after the other they took ~25 s + ~8 s). Each project's output is printed whole when it ends.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.join(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules/.bin/tsc');
const projects = ['tsconfig.json', 'web/tsconfig.json'];

function check(project: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsc, ['-p', project, '--noEmit'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (output) process.stdout.write(`tsc -p ${project}:\n${output}`);
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(projects.map(check));
process.exit(codes.find((code) => code !== 0) ?? 0);
