import { errorText } from '../api/client.ts';
import type { useToast } from './toast.tsx';

export type OutcomeOptions<Input, Output> = {
  /** The success text of an answer that is not itself the text (default: the answer when it is a string). */
  successText?: (output: Output) => string;
  /** What the screen does with the answer once it is stored (show a key once, close a dialog …). */
  onDone?: (output: Output, input: Input) => void;
  /** What the screen does besides showing the failure (a refund renews its key …). */
  onFailed?: (error: unknown) => void;
};

/**
 * Runs a server action and tells its outcome: the server's success text, or the server's (or the
 * screen's failText when the server could not be reached) failure text. Errors never escape: the caller
 * gets a boolean. Screens use useServerAction (which adds the reloads); the login page, which runs before
 * TanStack Query is loaded, calls this directly.
 */
export async function tellOutcome<Input, Output>(
  toast: ReturnType<typeof useToast>,
  action: (input: Input) => Promise<Output>,
  input: Input,
  failText: string,
  options: OutcomeOptions<Input, Output> = {},
): Promise<boolean> {
  try {
    const output = await action(input);
    const text = options.successText ? options.successText(output) : typeof output === 'string' ? output : '';
    if (text) void toast.success(text);
    options.onDone?.(output, input);
    return true;
  } catch (error) {
    options.onFailed?.(error);
    const text = errorText(error, failText);
    if (text) void toast.error(text);
    return false;
  }
}
