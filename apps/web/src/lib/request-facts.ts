import { createContext, useContext } from 'react';

/**
 * What the server knows of the browser it renders a page for (src/app-server.tsx): a guess
 * at the screen from the user agent, and the page's cookies. Only the server provides it;
 * in the browser hooks ask the browser itself.
 */
export type RequestFacts = {
  isPhone: boolean;
  cookies: ReadonlyMap<string, string>;
};

export const RequestFactsContext = createContext<RequestFacts | null>(null);

export function useRequestFacts(): RequestFacts | null {
  return useContext(RequestFactsContext);
}
