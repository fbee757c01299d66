import { type CSSProperties, useId } from 'react';
import classes from './segmented-choice.module.css';

type Choice<Value extends string> = { value: Value; label: string };

/**
 * One of a few choices side by side, as the browser's own radio buttons drawn like Mantine's
 * SegmentedControl: Mantine's measures its labels to slide an indicator between them, code
 * (about 3 KB gzipped) that a first screen waits for, to draw what CSS draws as well
 * (docs/decisions/030). The arrow keys move between the choices, as in any radio group.
 */
export function SegmentedChoice<Value extends string>({
  label,
  data,
  value,
  onChange,
  isFullWidth = false,
  isStackedOnPhone = false,
  maw,
}: {
  /** The group's accessible name. */
  label: string;
  data: readonly Choice<Value>[];
  value: Value;
  onChange: (value: Value) => void;
  isFullWidth?: boolean;
  /** One above the other on a phone, where several long labels do not fit side by side. */
  isStackedOnPhone?: boolean;
  maw?: CSSProperties['maxWidth'];
}) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className={classes.root}
      data-full-width={isFullWidth || undefined}
      data-stack-on-phone={isStackedOnPhone || undefined}
      style={maw === undefined ? undefined : { maxWidth: maw }}
    >
      {data.map((choice) => (
        <label key={choice.value} className={classes.choice}>
          <input
            type="radio"
            className={classes.input}
            name={name}
            value={choice.value}
            checked={choice.value === value}
            onChange={() => onChange(choice.value)}
          />
          <span className={classes.label}>{choice.label}</span>
        </label>
      ))}
    </div>
  );
}
