import {
  type CSSVariablesResolver,
  createTheme,
  type LoaderProps,
  type MantineColorsTuple,
  type ModalProps,
  type NotificationProps,
} from '@mantine/core';

// A deep teal: calm and trustworthy without copying any bank's brand. Shade 7 carries
// white text at 6.9:1 and shade 6 at 5.1:1, so filled buttons pass WCAG AA in both schemes.
const coffer: MantineColorsTuple = [
  '#e7f4f2',
  '#cde8e3',
  '#9dd3c9',
  '#6bbdae',
  '#42a898',
  '#27927f',
  '#1a7b6c',
  '#126559',
  '#0c5148',
  '#073d36',
];

export const theme = createTheme({
  colors: { coffer },
  primaryColor: 'coffer',
  primaryShade: { light: 7, dark: 6 },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Keyboard users always see where they are; mouse clicks do not leave rings behind.
  focusRing: 'auto',
  respectReducedMotion: true,
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  fontFamilyMonospace:
    'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  components: {
    // Mantine's close buttons have no text; screen readers need to hear what they do.
    // Plain objects rather than Modal.extend(): importing the components here would put
    // the dialog's and the toasts' code on every page before either is needed.
    // A spinner named by aria-label must have a role to carry the name (axe's
    // aria-prohibited-attr refuses a label on a plain span); a status is a polite live region.
    Loader: { defaultProps: { role: 'status' } satisfies Partial<LoaderProps> },
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps>,
    },
    Notification: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close' },
      } satisfies Partial<NotificationProps>,
    },
  },
  headings: {
    fontWeight: '650',
    sizes: {
      h1: { fontSize: '1.75rem', lineHeight: '1.25' },
      h2: { fontSize: '1.25rem', lineHeight: '1.35' },
    },
  },
});

// Mantine's default "dimmed" grey is 3.3:1 on white, below WCAG AA for body text; these
// greys keep secondary text readable (8.2:1 on white, 7.8:1 on the dark body). Likewise
// the text of "light" badges and alerts in green, yellow, orange and red is too pale on its
// tinted background in the light scheme (about 2.5:1); these darker tones pass 4.5:1. Field
// errors use red 9 (5.5:1 on white) instead of red 6 (3.6:1).
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-green-light-color': '#1e6b30',
    '--mantine-color-yellow-light-color': '#7a5200',
    '--mantine-color-orange-light-color': '#9a3f00',
    '--mantine-color-red-light-color': '#a61e1e',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)' },
});
