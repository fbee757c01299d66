import { msg } from '@lingui/core/macro';
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
  { label: msg`Admin`, to: '/admin', icon: UsersRound, activeOn: ['/admin', '/admin/users/*'] },
  { label: msg`Deposits queue`, to: '/admin/queues/deposits', icon: Inbox },
  { label: msg`Payouts queue`, to: '/admin/queues/payouts', icon: Banknote },
  { label: msg`Loans queue`, to: '/admin/queues/loans', icon: HandCoins },
  { label: msg`KYC queue`, to: '/admin/queues/kyc', icon: ShieldCheck },
  { label: msg`Cards queue`, to: '/admin/queues/cards', icon: CreditCard },
  {
    label: msg`Disputes queue`,
    to: '/admin/queues/disputes',
    icon: ShieldAlert,
    activeOn: ['/admin/queues/disputes', '/admin/disputes/*'],
  },
  { label: msg`Support inbox`, to: '/admin/queues/support', icon: MessagesSquare },
  { label: msg`Audit log`, to: '/admin/audit', icon: ScrollText },
  { label: msg`Books`, to: '/admin/books', icon: BookOpenCheck },
  { label: msg`Reconciliation`, to: '/admin/reconciliation', icon: ArrowLeftRight },
  { label: msg`Reports`, to: '/admin/reports', icon: ChartColumn },
  { label: msg`Exchange rates`, to: '/admin/exchange-rates', icon: Coins },
  { label: msg`Webhooks`, to: '/admin/webhooks', icon: Webhook, isAdminOnly: true },
];
