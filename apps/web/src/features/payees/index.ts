// What other features may use from payees: the picker that Quick Pay, Pay Bills and
// Withdraw show above their forms.
import { createElement, lazy, Suspense } from 'react';
import type { SavedPayeeSelect as Picker } from './components/saved-payee-select.tsx';

const Loaded = lazy(async () => ({
  default: (await import('./components/saved-payee-select.tsx')).SavedPayeeSelect,
}));

/**
 * Loads with its query, after the form's first screen: it shows nothing until the
 * customer's payees are there anyway, and its code (the saved-payee contract) stays out of
 * the first load of the pages it sits on (apps/web/budgets.json). No loader: the form
 * below must not jump for a picker most customers never see.
 */
export const SavedPayeeSelect = ((props: Parameters<typeof Picker>[0]) =>
  createElement(Suspense, { fallback: null }, createElement(Loaded, props))) as typeof Picker;
