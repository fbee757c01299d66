// What other features may use from cards: the back office's customer page.
export { CustomerCardsTab } from './components/customer-cards-tab.tsx';
