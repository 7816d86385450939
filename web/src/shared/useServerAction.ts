import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../api/client.ts';
import { invalidateEntity, type Entity } from '../api/queryKeys.ts';
import { useToast } from './toast.tsx';

type Options<Output> = {
  /** The success text of an answer that is not itself the text (default: the answer when it is a string). */
  successText?: (output: Output) => string;
  /** What the screen does with the answer once it is stored (show a key once, close a dialog …). */
  onDone?: (output: Output) => void;
};

/**
 * The one way a screen runs a server action: a mutation that shows the server's success text, reloads
 * every list and dropdown that shows the entity (api/queryKeys.ts), and shows the server's (or the
 * screen's) failure text. Errors never escape: callers get a boolean. Loads are useQuery (the query
 * client shows their failures), never this.
 */
export function useServerAction<Input, Output = string>(entity: Entity, action: (input: Input) => Promise<Output>, options: Options<Output> = {}) {
  const message = useToast();
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: action });
  const run = async (input: Input, failText: string): Promise<boolean> => {
    try {
      const output = await mutation.mutateAsync(input);
      const text = options.successText ? options.successText(output) : typeof output === 'string' ? output : '';
      if (text) void message.success(text);
      options.onDone?.(output);
      await invalidateEntity(queryClient, entity);
      return true;
    } catch (error) {
      const text = errorText(error, failText);
      if (text) void message.error(text);
      return false;
    }
  };
  return { run, pending: mutation.isPending };
}
