import { msg } from '@lingui/core/macro';
import { Menu as MenuIcon } from 'lucide-react';

/** The public pages' own links, in the header and in its phone menu. */
export const siteLinks = [
  { label: msg`About us`, to: '/about' },
  { label: msg`Banking Products`, to: '/#products' },
] as const;

/** The phone menu's button, the same in the app and on the server-rendered landing page. */
export const siteMenuButton = { label: msg`Site menu`, icon: <MenuIcon size={20} aria-hidden /> };
