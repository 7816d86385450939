// `npm run typecheck`: the server's and the console's TypeScript projects, checked at the same time (each tsc
// uses one core; one after the other they took ~25 s + ~8 s). Each project's output is printed whole when it ends.
import path from 'node:path';
import { runCaptured } from './run.ts';

const root = path.join(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules/.bin/tsc');
const projects = ['tsconfig.json', 'web/tsconfig.json'];

async function check(project: string): Promise<number> {
  const { code, output } = await runCaptured(tsc, ['-p', project, '--noEmit'], { cwd: root });
  if (output) process.stdout.write(`tsc -p ${project}:\n${output}`);
  return code ?? 1;
}

const codes = await Promise.all(projects.map(check));
process.exit(codes.find((code) => code !== 0) ?? 0);
