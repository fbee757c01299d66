// The browser side of the server-rendered landing page (landing.html; docs/decisions/010):
// its styles and its small script. No React: the page is already rendered.
//
// Mantine's styles per component, in the order of Mantine's full stylesheet (baseline,
// variables, global, then the components), for the components the landing page renders:
// landing-server.unit.test.ts fails when the page renders one that is missing here.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import './landing-theme-variables.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Card.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Menu.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/ThemeIcon.css';
import '@mantine/core/styles/Title.css';
import './components/language-switcher.css';
import './features/landing/components/landing.css';
import { enhanceStaticLandingPage } from './features/landing/static-page.ts';

/**
 * The header's language choice without the app (components/language-switcher.tsx): the
 * choice is kept in the cookie the server reads, and the page is asked for again in it.
 */
/** As long as browsers keep a cookie: 400 days. */
const languageCookieMaxAgeSeconds = 400 * 24 * 60 * 60;

function enhanceLanguageSwitchers(): void {
  for (const select of document.querySelectorAll<HTMLSelectElement>(
    'select[data-language-switcher]',
  )) {
    select.addEventListener('change', () => {
      // The select is named for the cookie and offers only the enabled languages. Written
      // here as lib/preference-cookies.ts writes it: importing that module would bring the
      // app's shared chunk to this page, which runs no app code.
      const secure = window.location.protocol === 'https:' ? '; secure' : '';
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and newer than some browsers Coffer supports; the value is encoded.
      document.cookie = `${select.name}=${encodeURIComponent(select.value)}; path=/; max-age=${languageCookieMaxAgeSeconds}; samesite=lax${secure}`;
      window.location.reload();
    });
  }
}

enhanceStaticLandingPage();
enhanceLanguageSwitchers();
