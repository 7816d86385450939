import { spawnSync } from 'node:child_process';

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
