import { parseArgs, type ParseArgsConfig } from 'node:util';

// What the command-line tools (the device simulator, the phone bridge) share in reading their arguments.

/** A command line the tool cannot run with: its message is printed with the usage, exit 2. */
export class UsageError extends Error {}

/** node:util's parseArgs, strict and without positionals, its refusals as UsageError. */
export function parseOptions<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** An http(s) URL option, without a trailing slash. */
export function httpUrl(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name}: not a URL: ${text}`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new UsageError(`${name} must be an http:// or https:// URL`);
  return url.toString().replace(/\/+$/, '');
}

/** --server, required. */
export function serverUrl(text: string | undefined): string {
  if (!text) throw new UsageError('--server URL is required (e.g. --server http://127.0.0.1:8080)');
  return httpUrl('--server', text);
}
