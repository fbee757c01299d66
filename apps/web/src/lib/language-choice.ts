import type { Me } from '@coffer/contracts/auth';
import type { Language } from '@coffer/contracts/languages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiRequest, errorMessage, noContentSchema } from './api-client.ts';
import { activateLanguage, currentLanguage } from './i18n.ts';
import { meQueryKey, useMe } from './session.ts';
import { useSite } from './site.ts';
import { showErrorToast } from './toasts.ts';

/**
 * Changes the language the person reads Coffer in (docs/decisions/054). Signed in, it is
 * stored first, so their emails and statements follow; then the page switches without a
 * reload, and every answer is asked again, as the server's words are in the language too.
 */
export function useChooseLanguage() {
  const me = useMe();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (language: Language) => {
      if (me) {
        // The session's copy first: the person's language is followed (below), and must
        // not switch the page back while every query is asked again.
        queryClient.setQueryData<Me | null>(meQueryKey, (old) => old && { ...old, language });
        await apiRequest({
          method: 'PUT',
          path: '/api/v1/profile/language',
          body: { language },
          schema: noContentSchema,
        });
      }
      await activateLanguage(language);
    },
    onSuccess: () => queryClient.invalidateQueries(),
    onError: (error) => showErrorToast(errorMessage(error)),
  });
}

/**
 * Signed in, the page is in the person's own language (the one their emails and statements
 * are in): on sign-in on a new browser, and when they chose another elsewhere.
 */
export function useFollowPersonLanguage(): void {
  const language = useMe()?.language;
  const enabled = useSite()?.languages;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!language || !enabled?.includes(language) || language === currentLanguage()) return;
    void activateLanguage(language).then(() => queryClient.invalidateQueries());
  }, [language, enabled, queryClient]);
}
