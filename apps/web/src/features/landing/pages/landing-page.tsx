import { useLingui } from '@lingui/react/macro';
import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { fallbackInstitutionName, siteQueryOptions } from '../../../lib/site.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { FeatureCards } from '../components/feature-cards.tsx';
import { Hero } from '../components/hero.tsx';
import { ProductTour } from '../components/product-tour.tsx';
import { VirtualCardsSection } from '../components/virtual-cards-section.tsx';
import { WhoWeAre } from '../components/who-we-are.tsx';
import { WhyCoffer } from '../components/why-coffer.tsx';

/** Scrolls to the section named in the address (/#products), also after in-app navigation. */
function useScrollToHash(isReady: boolean) {
  const { hash } = useLocation();
  useEffect(() => {
    if (!isReady || !hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash, isReady]);
}

export function LandingPage() {
  const { t } = useLingui();
  usePageTitle(null);
  const site = useQuery(siteQueryOptions);
  // Without the configuration the page still works: it only leaves out what is configured.
  const isReady = !site.isPending;
  useScrollToHash(isReady);
  if (!isReady) {
    return (
      <Center component="main" py={96}>
        <Loader aria-label={t`Loading`} />
      </Center>
    );
  }
  const institutionName = site.data?.institutionName ?? fallbackInstitutionName;
  return (
    <main>
      <Hero institutionName={institutionName} tagline={site.data?.tagline} />
      <FeatureCards />
      <WhyCoffer institutionName={institutionName} />
      <VirtualCardsSection institutionName={institutionName} />
      <ProductTour />
      {site.data?.whoWeAre && (
        <WhoWeAre text={site.data.whoWeAre} foundingYear={site.data.foundingYear} />
      )}
    </main>
  );
}
