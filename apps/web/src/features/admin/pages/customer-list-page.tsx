import { type CustomerList, customerSearchIdentifiers } from '@coffer/contracts/admin';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { EllipsisVertical, Search } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { DeferredDropdown } from '../../../components/deferred-dropdown.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, LoadMore, NothingFound } from '../../../components/query-states.tsx';
import { StaffRoleBadge } from '../../../components/staff-role-badge.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { intlLocale } from '../../../lib/i18n.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { KycStatusBadge } from '../../kyc/index.ts';
import { BooksAlerts, QueueCounts, WebhookAlerts } from '../../staff-home/index.ts';
import { customerListQueryOptions } from '../api.ts';
import { AccountStatusBadge } from '../components/badges.tsx';
import type { CustomerActionsMenuProps } from '../components/customer-actions-menu.tsx';
import { FreezeDialog, LevelDialog } from '../components/dialogs-on-demand.ts';

type Customer = CustomerList['items'][number];

const searchDebounceMs = 300;
const searchLengthMax = 100;

const loadActionsMenu = async () =>
  (await import('../components/customer-actions-menu.tsx')).CustomerActionsMenu;

/** View, and for admins a menu with Freeze/Unfreeze and Set Level, loaded when approached. */
function RowActions({
  customer,
  onFreeze,
  onSetLevel,
}: { customer: Customer } & Pick<CustomerActionsMenuProps, 'onFreeze' | 'onSetLevel'>) {
  const { t } = useLingui();
  const me = useMe();
  const { username } = customer;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Button
        component={Link}
        to={`/admin/users/${customer.id}`}
        variant="light"
        size="compact-sm"
        aria-label={t`View ${username}`}
      >
        <Trans>View</Trans>
      </Button>
      {me?.role === 'admin' && (
        <DeferredDropdown
          label={t`More actions for ${username}`}
          icon={<EllipsisVertical size={18} aria-hidden />}
          size="md"
          load={loadActionsMenu}
          dropdownProps={{ customer, canFreeze: me.id !== customer.id, onFreeze, onSetLevel }}
        />
      )}
    </Group>
  );
}

/**
 * What a search that found nobody looked at, read from the term as the server reads it: an
 * exact number or reference is named as such, so "no card ends in 8071" is not mistaken
 * for "the card search is broken".
 */
function nobodyMatches(search: string, i18n: I18n): string {
  const { accountNumber, phone, cardLastFour, disputeReference } =
    customerSearchIdentifiers(search);
  const exactly = [
    accountNumber && i18n._(msg`no account number is ${accountNumber}`),
    phone && i18n._(msg`no phone is ${phone}`),
    cardLastFour && i18n._(msg`no card ends in ${cardLastFour}`),
    disputeReference && i18n._(msg`no dispute is ${disputeReference}`),
  ].filter((part) => part !== null);
  if (exactly.length === 0) {
    return i18n._(
      msg`Nobody's name or email contains "${search}". A phone, an account number, a card's last four digits or a dispute reference is found when typed whole.`,
    );
  }
  // Each clause is a whole phrase in the language; the list is joined the language's way.
  const exactMatches = new Intl.ListFormat(intlLocale(), { type: 'unit', style: 'long' }).format(
    exactly,
  );
  return i18n._(msg`Nobody's name or email contains "${search}", and ${exactMatches}.`);
}

/** The back office's front page: every user, newest first, searchable on the server. */
export function CustomerListPage() {
  const { t, i18n } = useLingui();
  usePageTitle(t`Users`);
  const [searchParams, setSearchParams] = useSearchParams();
  const [searchText, setSearchText] = useState(searchParams.get('search') ?? '');
  const [debouncedSearch] = useDebouncedValue(searchText.trim(), searchDebounceMs);
  const customers = useInfiniteQuery({
    ...customerListQueryOptions(debouncedSearch),
    // While a new search runs, the last answer stays on screen instead of a spinner.
    placeholderData: keepPreviousData,
  });
  const freezeDialog = useDialogTarget<Customer>();
  const levelDialog = useDialogTarget<Customer>();

  const columns: Column<Customer>[] = [
    {
      key: 'name',
      header: t`Name`,
      cell: (customer) => (
        <Stack gap={0}>
          <Group gap={6} wrap="wrap">
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {customer.legalName ?? customer.username}
            </Text>
            <StaffRoleBadge role={customer.role} />
          </Group>
          {/* The verified legal name leads; the username is how the customer calls themself. */}
          {customer.legalName !== null && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {customer.username}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'email',
      header: t`Email`,
      cell: (customer) => <span style={{ overflowWrap: 'anywhere' }}>{customer.email}</span>,
    },
    {
      key: 'balance',
      header: t`Balance`,
      align: 'right',
      cell: (customer) =>
        customer.balance ? (
          <span style={{ whiteSpace: 'nowrap' }}>
            {formatAmountMinor(customer.balance.amountMinor, customer.balance.currency, {
              currencyDisplay: 'code',
            })}
          </span>
        ) : (
          <Text span size="sm" c="dimmed">
            <Trans>No wallet</Trans>
          </Text>
        ),
    },
    {
      key: 'kyc',
      header: t`KYC status`,
      // Staff have no identity verification of their own to show.
      cell: (customer) =>
        customer.role === 'customer' ? <KycStatusBadge status={customer.kycStatus} /> : null,
      isEmpty: (customer) => customer.role !== 'customer',
    },
    { key: 'level', header: t`Level`, cell: (customer) => customer.level },
    {
      key: 'status',
      header: t`Status`,
      cell: (customer) => (
        <AccountStatusBadge isFrozen={customer.isFrozen} closedAt={customer.closedAt} />
      ),
    },
    {
      key: 'actions',
      header: t`Actions`,
      isHeaderHidden: true,
      align: 'right',
      cell: (customer) => (
        <RowActions
          customer={customer}
          onFreeze={freezeDialog.open}
          onSetLevel={levelDialog.open}
        />
      ),
    },
  ];

  const firstPage = customers.data?.pages[0];
  const rows = customers.data?.pages.flatMap((page) => page.items) ?? [];
  // A new search's answer is on its way while the last one stays on screen. Not any fetch:
  // a background refresh (the live feed's catch-up right after the page is taken over) would
  // otherwise say "Searching" and re-render every row twice, in one blocking task each.
  const isSearching = customers.isPlaceholderData;

  return (
    <Stack gap="lg">
      <BooksAlerts />
      <WebhookAlerts />
      <QueueCounts />
      <Group justify="space-between" align="flex-end" gap="md">
        <Title order={1}>
          <Trans>Users</Trans>
        </Title>
        <Paper withBorder px="md" py="xs">
          <Text size="sm" c="dimmed">
            <Trans>Total Users</Trans>
          </Text>
          <Text fz="xl" fw={700} aria-live="polite">
            {firstPage ? firstPage.totalUsers.toLocaleString(intlLocale()) : '…'}
          </Text>
        </Paper>
      </Group>
      <TextInput
        type="search"
        aria-label={t`Search users`}
        placeholder={t`Name, email, phone, account number, card's last four, REF-…`}
        leftSection={<Search size={16} aria-hidden />}
        rightSection={isSearching ? <Loader size={16} aria-label={t`Searching`} /> : null}
        maxLength={searchLengthMax}
        value={searchText}
        onChange={(event) => {
          const text = event.currentTarget.value;
          setSearchText(text);
          // The search is kept in the address, so Back from a customer returns to it.
          setSearchParams(text.trim() ? { search: text.trim() } : {}, { replace: true });
        }}
      />
      {customers.isPending ? (
        <LoadingState label={t`Loading users`} />
      ) : customers.isError ? (
        <LoadFailed
          title={t`The users did not load`}
          error={customers.error}
          isRetrying={customers.isFetching}
          onRetry={() => customers.refetch()}
        />
      ) : rows.length === 0 ? (
        <NothingFound
          title={t`No users found`}
          description={debouncedSearch ? nobodyMatches(debouncedSearch, i18n) : undefined}
        />
      ) : (
        <>
          <DataTable
            label={t`Users`}
            columns={columns}
            rows={rows}
            rowKey={(customer) => customer.id}
            minWidth={820}
          />
          <LoadMore
            hasNextPage={customers.hasNextPage}
            isFetchingNextPage={customers.isFetchingNextPage}
            onLoadMore={() => customers.fetchNextPage()}
          />
        </>
      )}
      <FreezeDialog user={freezeDialog.target} {...freezeDialog.dialogProps} />
      <LevelDialog user={levelDialog.target} {...levelDialog.dialogProps} />
    </Stack>
  );
}
