// What other features may use from audit (the back office's customer page lists a person's events).
export { AuditEventsTable } from './components/audit-events-table.tsx';
