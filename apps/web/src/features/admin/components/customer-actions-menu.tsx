import type { CustomerList } from '@coffer/contracts/admin';
import { Trans } from '@lingui/react/macro';
import { Menu } from '@mantine/core';
import { Lock, LockOpen, TrendingUp } from 'lucide-react';
import {
  type TopBarDropdownProps,
  useOpenedOnceLoaded,
} from '../../../components/deferred-dropdown.tsx';

type Customer = CustomerList['items'][number];

export type CustomerActionsMenuProps = {
  customer: Customer;
  /** Nobody freezes their own account; the server refuses it too. */
  canFreeze: boolean;
  onFreeze: (customer: Customer, menuButton: HTMLElement | null) => void;
  onSetLevel: (customer: Customer, menuButton: HTMLElement | null) => void;
};

/**
 * An admin's menu on a row of the customer list, loaded when first approached
 * (customer-list-page.tsx): Freeze/Unfreeze and Set Level.
 */
export function CustomerActionsMenu({
  target,
  targetRef,
  customer,
  canFreeze,
  onFreeze,
  onSetLevel,
}: TopBarDropdownProps & CustomerActionsMenuProps) {
  const [isOpen, setIsOpen] = useOpenedOnceLoaded();
  const menuButton = () => targetRef?.current ?? null;
  return (
    <Menu position="bottom-end" shadow="md" width={200} opened={isOpen} onChange={setIsOpen}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        {canFreeze && (
          <Menu.Item
            leftSection={
              customer.isFrozen ? (
                <LockOpen size={16} aria-hidden />
              ) : (
                <Lock size={16} aria-hidden />
              )
            }
            onClick={() => onFreeze(customer, menuButton())}
          >
            {customer.isFrozen ? <Trans>Unfreeze</Trans> : <Trans>Freeze</Trans>}
          </Menu.Item>
        )}
        <Menu.Item
          leftSection={<TrendingUp size={16} aria-hidden />}
          onClick={() => onSetLevel(customer, menuButton())}
        >
          <Trans>Set Level</Trans>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
