import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../api/client.ts';
import { invalidateEntity, type Entity } from '../api/queryKeys.ts';
import { useToast } from './toast.tsx';

/**
 * A mutation that shows the server's success text, reloads every list and dropdown that shows the
 * entity (api/queryKeys.ts), and shows the server's (or the screen's) failure text. Errors never
 * escape: callers get a boolean.
 */
export function useServerAction<Input>(entity: Entity, action: (input: Input) => Promise<string>) {
  const message = useToast();
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: action });
  const run = async (input: Input, failText: string): Promise<boolean> => {
    try {
      const text = await mutation.mutateAsync(input);
      void message.success(text);
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
