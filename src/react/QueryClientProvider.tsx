/**
 * The client context. A component finds its QueryClient here unless a hook is handed one explicitly;
 * the provider also mounts the client, which is what makes focus and reconnect refetches start.
 */
import { React } from './reactNamespace';
import type { QueryClient } from 'roundtrip/query';

export const QueryClientContext = React.createContext<QueryClient | undefined>(undefined);

/** The client passed in, else the nearest provider's; throws when there is neither. */
export function useQueryClient(queryClient?: QueryClient): QueryClient {
  const fromContext = React.useContext(QueryClientContext);
  if (queryClient) return queryClient;
  if (!fromContext) {
    // Same wording as @tanstack/react-query, so search results for the message still apply.
    throw new Error('No QueryClient set, use QueryClientProvider to set one');
  }
  return fromContext;
}

export type QueryClientProviderProps = {
  client: QueryClient;
  children?: React.ReactNode;
};

export function QueryClientProvider({ client, children }: QueryClientProviderProps): React.JSX.Element {
  React.useEffect(() => {
    client.mount();
    return () => client.unmount();
  }, [client]);
  // createElement rather than JSX: JSX would add an import of react/jsx-runtime, which a bundler keeps even
  // in an app that never renders this component (see reactNamespace.ts)
  return React.createElement(QueryClientContext.Provider, { value: client }, children);
}
