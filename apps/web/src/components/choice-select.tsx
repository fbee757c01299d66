import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import classes from './choice-select.module.css';

type Choice = { value: string; label: string };

/**
 * A choice from a list, as the browser's own select styled like Mantine's inputs: Mantine's
 * Select brings its Combobox, Popover and Floating UI (about 22 KB gzipped) to a form's
 * first screen for a list a native select shows as well (docs/decisions/025, 030). Until a
 * choice is made (`value` null), the placeholder shows. A required choice cannot go back
 * to it; an optional one (`isOptional`) can, and then `onChange` gets null, as Mantine's
 * Select gives when cleared.
 */
export function ChoiceSelect({
  placeholder,
  data,
  value,
  onChange,
  isOptional = false,
  ...props
}: Omit<NativeSelectProps, 'data' | 'value' | 'onChange'> & {
  placeholder: string;
  data: readonly Choice[];
  value?: string | null;
  onChange?: (value: string | null) => void;
  isOptional?: boolean;
}) {
  return (
    <NativeSelect
      {...props}
      data={[{ value: '', label: placeholder, disabled: !isOptional }, ...data]}
      classNames={{ input: classes.input }}
      data-placeholder-shown={value ? undefined : true}
      value={value ?? ''}
      onChange={(event) => {
        const chosen = event.currentTarget.value;
        onChange?.(isOptional && chosen === '' ? null : chosen);
      }}
    />
  );
}
