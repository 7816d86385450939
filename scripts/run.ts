import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';

/** Runs a command with the repo's PATH (node_modules/.bin first, so `node` is the pinned Node 24). */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function runOrExit(command: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  const status = run(command, args, env);
  if (status !== 0) process.exit(status);
}

/** Runs a command without waiting on it, its stdout and stderr kept together: the exit code (null when killed) and the text. */
export function runCaptured(command: string, args: string[], options: SpawnOptions = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
