// What other features may use from staff-home: the back office's customer list, its home,
// and the queues' names (the reports chart them).
export { BooksAlerts } from './components/books-alerts.tsx';
export { QueueCounts } from './components/queue-counts.tsx';
export { queueNames } from './components/queue-names.ts';
export { WebhookAlerts } from './components/webhook-alerts.tsx';
