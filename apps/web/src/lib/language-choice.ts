import type { Me } from '@coffer/contracts/auth';
import type { Language } from '@coffer/contracts/languages';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorMessage, noContentSchema } from './api-client.ts';
import { activateLanguage } from './i18n.ts';
import { meQueryKey, useMe } from './session.ts';
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
        // The session's copy too: pages that show the person's language read it there.
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
