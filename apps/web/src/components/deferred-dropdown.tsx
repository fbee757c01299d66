import { ActionIcon } from '@mantine/core';
import {
  type ComponentProps,
  type ComponentType,
  type ReactNode,
  type Ref,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

/**
 * What a top-bar dropdown (a Menu or a Popover) gets once its code has loaded: the button
 * that opens it, as it looked before. A click loaded it, so it opens at once
 * (`useOpenedOnceLoaded`).
 */
export type TopBarDropdownProps = { target: ReactNode };

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
  ref?: Ref<HTMLButtonElement>;
} & Pick<ComponentProps<'button'>, 'onPointerEnter' | 'onFocus' | 'onClick'>;

export function TopBarButton({ label, icon, ref, ...handlers }: TopBarButtonProps) {
  return (
    <ActionIcon ref={ref} variant="subtle" color="gray" size="lg" aria-label={label} {...handlers}>
      {icon}
    </ActionIcon>
  );
}

/**
 * A top-bar button whose dropdown loads when someone approaches it: pointer or focus
 * fetch its code, a click shows it open. Menus and popovers bring Floating UI and their
 * own code (about a tenth of a signed-in page's JavaScript) that most visits never use.
 */
export function DeferredDropdown({
  label,
  icon,
  load,
}: {
  label: string;
  icon: ReactNode;
  load: () => Promise<ComponentType<TopBarDropdownProps>>;
}) {
  const [Dropdown, setDropdown] = useState<ComponentType<TopBarDropdownProps> | null>(null);
  const loadedButton = useRef<HTMLButtonElement>(null);
  // The clicked button has just been replaced by the dropdown's own: focus moves to it
  // before the dropdown opens, so closing the dropdown returns there.
  useLayoutEffect(() => {
    if (Dropdown) loadedButton.current?.focus();
  }, [Dropdown]);
  if (Dropdown) {
    return <Dropdown target={<TopBarButton ref={loadedButton} label={label} icon={icon} />} />;
  }
  const prefetch = () => void load();
  return (
    <TopBarButton
      label={label}
      icon={icon}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={async () => {
        const loaded = await load();
        setDropdown(() => loaded);
      }}
    />
  );
}
