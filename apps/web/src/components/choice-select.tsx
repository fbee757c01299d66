import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import classes from './choice-select.module.css';

type Choice = { value: string; label: string };

/**
 * A required choice from a short list, as the browser's own select styled like Mantine's
 * inputs: Mantine's Select brings its Combobox, Popover and Floating UI (about 22 KB
 * gzipped) to a form's first screen for a list a native select shows as well. Until a
 * choice is made (`value` null), the placeholder shows and cannot be chosen again.
 */
export function ChoiceSelect({
  placeholder,
  data,
  value,
  onChange,
  ...props
}: Omit<NativeSelectProps, 'data' | 'value' | 'onChange'> & {
  placeholder: string;
  data: readonly Choice[];
  value?: string | null;
  onChange?: (value: string) => void;
}) {
  return (
    <NativeSelect
      {...props}
      data={[{ value: '', label: placeholder, disabled: true }, ...data]}
      classNames={{ input: classes.input }}
      data-placeholder-shown={value ? undefined : true}
      value={value ?? ''}
      onChange={(event) => onChange?.(event.currentTarget.value)}
    />
  );
}
