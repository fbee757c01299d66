import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  ArrowLeftRight,
  BookUser,
  CalendarClock,
  CreditCard,
  FileSpreadsheet,
  FileText,
  HandCoins,
  LayoutDashboard,
  LifeBuoy,
  type LucideIcon,
  ReceiptText,
  Repeat,
  ShieldCheck,
  UserRound,
  Wallet,
} from 'lucide-react';

export type NavItem = {
  label: MessageDescriptor;
  /** Canonical path. */
  to: string;
  icon: LucideIcon;
  /**
   * Path patterns on which the item is shown as the current page; by default its own path
   * and every path below it.
   */
  activeOn?: readonly string[];
  /** Shown to admins only: support would be refused the page (the server decides). */
  isAdminOnly?: boolean;
};

/** Everyone's own profile, customers' and staff's. */
export const profilePage: NavItem = { label: msg`Profile`, to: '/profile', icon: UserRound };

/**
 * The customer's pages in the order of PRODUCT.md's "Shell of signed-in pages" (Dashboard,
 * Transfer, Pay Bills, Payees, Scheduled payments and Bulk payments (issue #32), Loan, Cards, KYC, Statements, Support, Profile), listing only those
 * built today: a feature adds its page here in the change that adds its route. The side
 * menu lists them all and the dashboard's shortcut tiles all but the dashboard, so no link
 * leads to a page that does not exist.
 */
export const customerPages: readonly NavItem[] = [
  { label: msg`Dashboard`, to: '/dashboard', icon: LayoutDashboard },
  { label: msg`Wallets`, to: '/wallets', icon: Wallet },
  { label: msg`Exchange`, to: '/exchange', icon: Repeat },
  { label: msg`Transfer`, to: '/transfer', icon: ArrowLeftRight },
  { label: msg`Pay Bills`, to: '/pay-bills', icon: ReceiptText },
  { label: msg`Payees`, to: '/payees', icon: BookUser },
  { label: msg`Scheduled`, to: '/scheduled-payments', icon: CalendarClock },
  { label: msg`Bulk payments`, to: '/bulk-payments', icon: FileSpreadsheet },
  { label: msg`Loan`, to: '/loan', icon: HandCoins },
  { label: msg`Cards`, to: '/cards', icon: CreditCard },
  { label: msg`KYC`, to: '/kyc', icon: ShieldCheck },
  { label: msg`Statements`, to: '/statements', icon: FileText },
  { label: msg`Support`, to: '/support', icon: LifeBuoy },
  profilePage,
];
