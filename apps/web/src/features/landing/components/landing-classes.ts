import './landing.css';

/** The class names of landing.css, for the landing page's components. */
export const classes = {
  hero: 'landing-hero',
  heroMock: 'landing-hero-mock',
  mockBar: 'landing-mock-bar',
  mockButton: 'landing-mock-button',
  mockIcon: 'landing-mock-icon',
  mockRow: 'landing-mock-row',
  section: 'landing-section',
  tinted: 'landing-tinted',
  card: 'landing-card',
  chip: 'landing-chip',
  cardDigits: 'landing-card-digits',
  tourWindow: 'landing-tour-window',
  tourBar: 'landing-tour-bar',
  tourDot: 'landing-tour-dot',
  tourScreen: 'landing-tour-screen',
  tourField: 'landing-tour-field',
  tourCursor: 'landing-tour-cursor',
  mirrorInRtl: 'landing-mirror-in-rtl',
} as const;
