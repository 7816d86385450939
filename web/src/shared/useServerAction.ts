import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateEntity, type Entity } from '../api/queryKeys.ts';
import { tellOutcome, type OutcomeOptions } from './tellOutcome.ts';
import { useToast } from './toast.tsx';

/**
 * The one way a screen runs a server action: a mutation that shows the server's success text, reloads
 * every list and dropdown that shows the entity (api/queryKeys.ts; null: an action that changes no listed
 * entity, such as an upload or an export), and shows the server's (or the screen's) failure text
 * (tellOutcome.ts). Errors never escape: callers get a boolean. Loads are useQuery (the query client shows
 * their failures), never this.
 */
export function useServerAction<Input, Output = string>(
  entity: Entity | null,
  action: (input: Input) => Promise<Output>,
  options: OutcomeOptions<Input, Output> = {},
) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: action });
  const run = async (input: Input, failText: string): Promise<boolean> => {
    const done = await tellOutcome(toast, mutation.mutateAsync, input, failText, options);
    if (done && entity) await invalidateEntity(queryClient, entity);
    return done;
  };
  return { run, pending: mutation.isPending };
}
