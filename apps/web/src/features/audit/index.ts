import { msg } from '@lingui/core/macro';
// What other features may use from audit (the back office's customer page lists a person's
// events; an account's activity names its actions).
import { onDemand } from '../../components/on-demand.tsx';

export { auditActionNames } from './components/action-names.ts';

// Loaded when the back office opens a customer's Audit tab.
export const AuditEventsTable = onDemand(
  async () => (await import('./components/audit-events-table.tsx')).AuditEventsTable,
  msg`Loading audit events`,
);
