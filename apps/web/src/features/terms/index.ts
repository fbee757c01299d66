// What other features may use from terms (sign-up shows the terms to accept).
export { termsQueryOptions } from './api.ts';
export { TermsDocument } from './components/terms-document.tsx';
