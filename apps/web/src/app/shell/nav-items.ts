import { LayoutDashboard, type LucideIcon, UserRound } from 'lucide-react';

export type NavItem = {
  label: string;
  /** Canonical path; the item is active on it and on every path below it. */
  to: string;
  icon: LucideIcon;
};

/**
 * The side menu, in order. Only routes that exist in this build are listed: a feature adds
 * its entry here in the same change that adds its route (PRODUCT.md, Shell of signed-in
 * pages, lists the full menu).
 */
export const navItems: readonly NavItem[] = [
  { label: 'Dashboard', to: '/dashboard', icon: LayoutDashboard },
  { label: 'Profile', to: '/profile', icon: UserRound },
];
