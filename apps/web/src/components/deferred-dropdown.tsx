import { ActionIcon } from '@mantine/core';
import {
  type ComponentProps,
  type ComponentType,
  type ReactNode,
  type Ref,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

/**
 * What a deferred dropdown (a Menu or a Popover) gets once its code has loaded: the button
 * that opens it, as it looked before, and a ref to that button (a dialog opened from a
 * menu item returns focus there). A click loaded it, so it opens at once
 * (`useOpenedOnceLoaded`).
 */
export type TopBarDropdownProps = {
  target: ReactNode;
  targetRef?: RefObject<HTMLButtonElement | null>;
};

/**
 * The open state of a dropdown that a click has just loaded: closed for its first render,
 * then open. Mantine remembers where focus was when a dropdown opens (to return it there
 * on close) only when it changes to open, not when it starts open.
 */
export function useOpenedOnceLoaded(): [boolean, (isOpen: boolean) => void] {
  const [isOpen, setIsOpen] = useState(false);
  useEffect(() => setIsOpen(true), []);
  return [isOpen, setIsOpen];
}

type TopBarButtonProps = {
  label: string;
  icon: ReactNode;
  /** The top bar's buttons are `lg`; a table row's are Mantine's default, `md`. */
  size?: 'md' | 'lg';
  ref?: Ref<HTMLButtonElement>;
} & Pick<ComponentProps<'button'>, 'onPointerEnter' | 'onFocus' | 'onClick'>;

export function TopBarButton({ label, icon, size = 'lg', ref, ...handlers }: TopBarButtonProps) {
  return (
    <ActionIcon
      ref={ref}
      variant="subtle"
      color="gray"
      size={size}
      aria-label={label}
      // ActionIcon clips what sticks out; the bell's count ("10") sits on its corner.
      style={{ overflow: 'visible' }}
      {...handlers}
    >
      {icon}
    </ActionIcon>
  );
}

/**
 * A button (in the top bar, or a table row's actions) whose dropdown loads when someone
 * approaches it: pointer or focus fetch its code, a click shows it open. Menus and
 * popovers bring Floating UI and their own code (about a tenth of a signed-in page's
 * JavaScript) that most visits never use. `dropdownProps` go to the loaded dropdown.
 */
export function DeferredDropdown<Extra extends object = Record<never, never>>({
  label,
  icon,
  size,
  load,
  dropdownProps,
}: {
  label: string;
  icon: ReactNode;
  size?: TopBarButtonProps['size'];
  load: () => Promise<ComponentType<TopBarDropdownProps & Extra>>;
} & (keyof Extra extends never ? { dropdownProps?: Extra } : { dropdownProps: Extra })) {
  const [Dropdown, setDropdown] = useState<ComponentType<TopBarDropdownProps & Extra> | null>(null);
  const loadedButton = useRef<HTMLButtonElement>(null);
  // The clicked button has just been replaced by the dropdown's own: focus moves to it
  // before the dropdown opens, so closing the dropdown returns there.
  useLayoutEffect(() => {
    if (Dropdown) loadedButton.current?.focus();
  }, [Dropdown]);
  if (Dropdown) {
    return (
      <Dropdown
        {...(dropdownProps as Extra)}
        target={<TopBarButton ref={loadedButton} label={label} icon={icon} size={size} />}
        targetRef={loadedButton}
      />
    );
  }
  const prefetch = () => void load();
  return (
    <TopBarButton
      label={label}
      icon={icon}
      size={size}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={async () => {
        const loaded = await load();
        setDropdown(() => loaded);
      }}
    />
  );
}
