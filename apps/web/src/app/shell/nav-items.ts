import {
  ArrowLeftRight,
  Banknote,
  BookOpenCheck,
  ChartColumn,
  Coins,
  CreditCard,
  HandCoins,
  Inbox,
  MessagesSquare,
  ScrollText,
  ShieldAlert,
  ShieldCheck,
  UsersRound,
  Webhook,
} from 'lucide-react';
import type { NavItem } from '../../lib/navigation.ts';

/**
 * The back office's pages, shown to support and admin only (the server enforces the same):
 * the customer list, the queues built so far, the audit log, the books and the reports. Staff have no customer
 * pages; their menu ends with their own profile and Logout.
 */
export const staffNavItems: readonly NavItem[] = [
  { label: 'Admin', to: '/admin', icon: UsersRound, activeOn: ['/admin', '/admin/users/*'] },
  { label: 'Deposits queue', to: '/admin/queues/deposits', icon: Inbox },
  { label: 'Payouts queue', to: '/admin/queues/payouts', icon: Banknote },
  { label: 'Loans queue', to: '/admin/queues/loans', icon: HandCoins },
  { label: 'KYC queue', to: '/admin/queues/kyc', icon: ShieldCheck },
  { label: 'Cards queue', to: '/admin/queues/cards', icon: CreditCard },
  {
    label: 'Disputes queue',
    to: '/admin/queues/disputes',
    icon: ShieldAlert,
    activeOn: ['/admin/queues/disputes', '/admin/disputes/*'],
  },
  { label: 'Support inbox', to: '/admin/queues/support', icon: MessagesSquare },
  { label: 'Audit log', to: '/admin/audit', icon: ScrollText },
  { label: 'Books', to: '/admin/books', icon: BookOpenCheck },
  { label: 'Reconciliation', to: '/admin/reconciliation', icon: ArrowLeftRight },
  { label: 'Reports', to: '/admin/reports', icon: ChartColumn },
  { label: 'Exchange rates', to: '/admin/exchange-rates', icon: Coins },
  { label: 'Webhooks', to: '/admin/webhooks', icon: Webhook, isAdminOnly: true },
];
