// What other features may use from account-closure: the closed account's card on a
// customer's staff page, with its reopening (ADR 050).
import { createElement, lazy, Suspense } from 'react';
import type { ClosedAccountCard as Card } from './components/closed-account-card.tsx';

const Loaded = lazy(async () => ({
  default: (await import('./components/closed-account-card.tsx')).ClosedAccountCard,
}));

/** Loads only on a closed account's page: most customer pages never need its code. */
export const ClosedAccountCard = ((props: Parameters<typeof Card>[0]) =>
  createElement(Suspense, { fallback: null }, createElement(Loaded, props))) as typeof Card;
