// What other features may use from staff-home: the back office's customer list, its home.
export { BooksAlerts } from './components/books-alerts.tsx';
export { QueueCounts } from './components/queue-counts.tsx';
export { WebhookAlerts } from './components/webhook-alerts.tsx';
