import type { UseFormReturnType } from '@mantine/form';
import { useCallback } from 'react';

// Apart from lib/forms.ts, which every form loads: only the server-rendered visitors' forms
// (sign-up, sign-in, forgot password) use it.

type FormField = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** What a field shows, as the form keeps it: a checkbox's value when ticked, else ''. */
function shownValue(field: FormField, kept: unknown): unknown {
  if (!(field instanceof HTMLInputElement) || field.type !== 'checkbox') return field.value;
  if (typeof kept === 'boolean') return field.checked;
  return field.checked ? field.value : '';
}

/**
 * Keeps what a visitor typed into a server-rendered form before the app started
 * (docs/decisions/056). Hydration leaves the fields' text on screen but not in the form's
 * state, so the next render would empty them, and a submit would send nothing. Gives the
 * `<form>`'s ref: once attached, every field Mantine names (`data-path`, from
 * `getInputProps`) that shows something else than the state is taken into it. On a page the
 * app drew itself the two agree, and nothing happens.
 */
export function useInputBeforeStart<Values extends Record<string, unknown>>(
  form: UseFormReturnType<Values>,
) {
  const { getValues, setFieldValue } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, when the form is attached.
  return useCallback((element: HTMLFormElement | null) => {
    if (!element) return;
    const kept: Record<string, unknown> = getValues();
    for (const field of element.querySelectorAll<FormField>('[data-path]')) {
      const path = field.dataset.path ?? '';
      const shown = shownValue(field, kept[path]);
      if (path in kept && shown !== kept[path]) setFieldValue(path as never, shown as never);
    }
  }, []);
}
