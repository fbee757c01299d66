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
  label: string;
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
export const profilePage: NavItem = { label: 'Profile', to: '/profile', icon: UserRound };

/**
 * The customer's pages in the order of PRODUCT.md's "Shell of signed-in pages" (Dashboard,
 * Transfer, Pay Bills, Payees, Scheduled payments and Bulk payments (issue #32), Loan, Cards, KYC, Statements, Support, Profile), listing only those
 * built today: a feature adds its page here in the change that adds its route. The side
 * menu lists them all and the dashboard's shortcut tiles all but the dashboard, so no link
 * leads to a page that does not exist.
 */
export const customerPages: readonly NavItem[] = [
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard },
  { label: 'Wallets', to: '/wallets', icon: Wallet },
  { label: 'Exchange', to: '/exchange', icon: Repeat },
  { label: 'Transfer', to: '/transfer', icon: ArrowLeftRight },
  { label: 'Pay Bills', to: '/pay-bills', icon: ReceiptText },
  { label: 'Payees', to: '/payees', icon: BookUser },
  { label: 'Scheduled', to: '/scheduled-payments', icon: CalendarClock },
  { label: 'Bulk payments', to: '/bulk-payments', icon: FileSpreadsheet },
  { label: 'Loan', to: '/loan', icon: HandCoins },
  { label: 'Cards', to: '/cards', icon: CreditCard },
  { label: 'KYC', to: '/kyc', icon: ShieldCheck },
  { label: 'Statements', to: '/statements', icon: FileText },
  { label: 'Support', to: '/support', icon: LifeBuoy },
  profilePage,
];
