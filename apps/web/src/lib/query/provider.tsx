import { createContext, type ReactNode, useContext, useEffect } from 'react';
import type { QueryClient } from './query-client.ts';

const QueryClientContext = createContext<QueryClient | null>(null);

/** Gives the pages below the client; while shown, it refetches on focus and reconnection. */
export function QueryClientProvider({
  client,
  children,
}: {
  client: QueryClient;
  children?: ReactNode;
}) {
  useEffect(() => client.mount(), [client]);
  return <QueryClientContext.Provider value={client}>{children}</QueryClientContext.Provider>;
}

export function useQueryClient(): QueryClient {
  const client = useContext(QueryClientContext);
  if (!client) throw new Error('useQueryClient outside a QueryClientProvider');
  return client;
}
