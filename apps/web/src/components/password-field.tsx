import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * A password input whose show/hide toggle is reachable with Tab and says what it does;
 * Mantine's default leaves the toggle out of the tab order.
 */
export function PasswordField(props: PasswordInputProps) {
  return <PasswordInput visibilityToggleFocusable {...props} />;
}
