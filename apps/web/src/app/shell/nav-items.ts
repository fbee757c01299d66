import {
  ArrowLeftRight,
  Banknote,
  FileText,
  Inbox,
  LayoutDashboard,
  type LucideIcon,
  ReceiptText,
  ScrollText,
  UserRound,
  UsersRound,
} from 'lucide-react';

export type NavItem = {
  label: string;
  /** Canonical path. */
  to: string;
  icon: LucideIcon;
  /**
   * Path patterns on which the item is shown as the current page; by default its own path
   * and every path below it.
   */
  activeOn?: readonly string[];
};

/**
 * The side menu, in order. Only routes that exist in this build are listed: a feature adds
 * its entry here in the same change that adds its route (PRODUCT.md, Shell of signed-in
 * pages, lists the full menu).
 */
export const navItems: readonly NavItem[] = [
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard },
  { label: 'Transfer', to: '/transfer', icon: ArrowLeftRight },
  { label: 'Pay Bills', to: '/pay-bills', icon: ReceiptText },
  { label: 'Statements', to: '/statements', icon: FileText },
  { label: 'Profile', to: '/profile', icon: UserRound },
];

/** The back office, shown to support and admin only (the server enforces the same). */
export const staffNavItems: readonly NavItem[] = [
  { label: 'Admin', to: '/admin', icon: UsersRound, activeOn: ['/admin', '/admin/users/*'] },
  { label: 'Deposits queue', to: '/admin/queues/deposits', icon: Inbox },
  { label: 'Payouts queue', to: '/admin/queues/payouts', icon: Banknote },
  { label: 'Audit log', to: '/admin/audit', icon: ScrollText },
];
