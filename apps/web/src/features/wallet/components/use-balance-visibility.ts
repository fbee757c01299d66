import { useLocalStorage } from '@mantine/hooks';

/**
 * Whether the customer chose to show their balance (hidden until they do, in case someone
 * looks over their shoulder). Remembered in this browser; every component that shows the
 * balance reads the same setting and follows when it changes.
 */
export function useBalanceVisibility(): [
  isVisible: boolean,
  setIsVisible: (isVisible: boolean) => void,
] {
  const [isVisible, setIsVisible] = useLocalStorage({
    key: 'coffer-balance-visible',
    defaultValue: false,
    // Read on the first render, so a balance the customer chose to show does not first
    // appear as dots and then change.
    getInitialValueInEffect: false,
  });
  return [isVisible, setIsVisible];
}
