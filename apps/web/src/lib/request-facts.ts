import { createContext, useContext } from 'react';

/**
 * What the server knows of the browser it renders a page for (src/app-server.tsx): the
 * page's cookies. Only the server provides it; in the browser hooks ask the browser itself.
 */
export type RequestFacts = {
  cookies: ReadonlyMap<string, string>;
};

export const RequestFactsContext = createContext<RequestFacts | null>(null);

export function useRequestFacts(): RequestFacts | null {
  return useContext(RequestFactsContext);
}
