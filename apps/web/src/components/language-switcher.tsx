import {
  isLanguage,
  languageCookieName,
  languageNames,
  sourceLanguage,
} from '@coffer/contracts/languages';
import { useLingui } from '@lingui/react/macro';
import { Languages } from 'lucide-react';
import { useChooseLanguage } from '../lib/language-choice.ts';
import { useSite } from '../lib/site.ts';
import './language-switcher.css';

/**
 * The languages the operator offers, each in its own name. A plain select rather than
 * Mantine's (whose Input and Combobox styles weigh 6 KB on every public page), so it also
 * works on the server-rendered landing page, whose small script handles its change
 * (landing-client.ts) where the app is not loaded.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useLingui();
  const enabled = useSite()?.languages ?? [sourceLanguage];
  const chooseLanguage = useChooseLanguage();
  if (enabled.length < 2) return null;
  return (
    <span className="coffer-language-switcher">
      <Languages size={14} aria-hidden />
      <select
        aria-label={t`Language`}
        data-language-switcher=""
        name={languageCookieName}
        value={i18n.locale}
        disabled={chooseLanguage.isPending}
        onChange={(event) => {
          const language = event.currentTarget.value;
          if (isLanguage(language)) chooseLanguage.mutate(language);
        }}
      >
        {enabled.map((language) => (
          <option key={language} value={language} lang={language}>
            {languageNames[language]}
          </option>
        ))}
      </select>
    </span>
  );
}
