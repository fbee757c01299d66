import type { CustomerDetail } from '@coffer/contracts/admin';
import {
  Anchor,
  Badge,
  Button,
  Card,
  DataList,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useId } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { z } from 'zod/mini';
import { CopyButton } from '../../../components/copy-button.tsx';
import { EmailWithStatus } from '../../../components/email-with-status.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { NotFoundContent } from '../../../components/not-found-content.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { roleLabels, StaffRoleBadge } from '../../../components/staff-role-badge.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { customerDetailQueryOptions } from '../../../lib/back-office.ts';
import { formatDate, formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { ClosedAccountCard } from '../../account-closure/index.ts';
import { AuditEventsTable } from '../../audit/index.ts';
import { CustomerBulkPaymentsTab } from '../../bulk-payments/index.ts';
import { CustomerCardsTab } from '../../cards/index.ts';
import {
  AccountActionsCard,
  customerMoneyRequestsQueryOptions,
  MoneyRequestsTab,
} from '../../deposits/index.ts';
import { CustomerDisputesTab } from '../../disputes/index.ts';
import { CustomerKycTab } from '../../kyc/index.ts';
import { CustomerLoansTab, DisburseLoanForm } from '../../loans/index.ts';
import { CustomerPayoutsTab } from '../../payouts/index.ts';
import { CustomerMessagesTab } from '../../support/index.ts';
import { customerWalletsQueryOptions } from '../api.ts';
import { AccountStatusBadge } from '../components/badges.tsx';
import { FreezeDialog, LevelDialog, RoleDialog } from '../components/dialogs-on-demand.ts';
import { RoleGrantCard } from '../components/role-grant-card.tsx';
import { TransactionsTab } from '../components/transactions-tab.tsx';

const userIdSchema = z.uuid();

function BackToUsers() {
  return (
    <Anchor component={Link} to="/admin" size="sm">
      <Group gap={4} wrap="nowrap" component="span">
        <ArrowLeft size={16} aria-hidden />
        Back to Users
      </Group>
    </Anchor>
  );
}

function MoneyFigure({
  label,
  amountMinor,
  currency,
  isMain = false,
}: {
  label: string;
  amountMinor: bigint;
  currency: string;
  isMain?: boolean;
}) {
  const labelId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={labelId}>
      <Text size="sm" c="dimmed" id={labelId}>
        {label}
      </Text>
      <Text fz={isMain ? 26 : 20} fw={700} style={{ overflowWrap: 'anywhere' }}>
        {formatAmountMinor(amountMinor, currency, { currencyDisplay: 'code' })}
      </Text>
    </Paper>
  );
}

function AccountNumber({ accountNumber }: { accountNumber: string }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text ff="monospace">{accountNumber}</Text>
      <CopyButton value={accountNumber} accessibleName="Copy account number" />
    </Group>
  );
}

function CustomerSummary({ customer }: { customer: CustomerDetail }) {
  const me = useMe();
  const isAdmin = me?.role === 'admin';
  const isSelf = me?.id === customer.id;
  const [isFreezeOpen, freezeDialog] = useDisclosure(false);
  const [isLevelOpen, levelDialog] = useDisclosure(false);
  const [isRoleOpen, roleDialog] = useDisclosure(false);
  const headingId = useId();

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        Account
      </Title>
      <DataList labelWidth={150}>
        {customer.wallet && (
          <DataList.Item>
            <DataList.ItemLabel>Account number</DataList.ItemLabel>
            <DataList.ItemValue>
              <AccountNumber accountNumber={customer.wallet.accountNumber} />
            </DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>Level</DataList.ItemLabel>
          <DataList.ItemValue>
            <Group gap="sm" wrap="wrap">
              <Text fw={600}>Level {customer.level}</Text>
              {isAdmin && (
                <Button variant="light" size="compact-sm" onClick={levelDialog.open}>
                  Set Level
                </Button>
              )}
            </Group>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Status</DataList.ItemLabel>
          <DataList.ItemValue>
            <Stack gap={6}>
              <Group gap="sm" wrap="wrap">
                <AccountStatusBadge isFrozen={customer.isFrozen} closedAt={customer.closedAt} />
                {isAdmin && !isSelf && (
                  <Button
                    variant="light"
                    size="compact-sm"
                    color={customer.isFrozen ? undefined : 'red'}
                    onClick={freezeDialog.open}
                  >
                    {customer.isFrozen ? 'Unfreeze' : 'Freeze'}
                  </Button>
                )}
              </Group>
              {customer.frozenReason !== null && (
                <Text size="sm">Reason: {customer.frozenReason}</Text>
              )}
            </Stack>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Role</DataList.ItemLabel>
          <DataList.ItemValue>
            <Group gap="sm" wrap="wrap">
              <Text>{roleLabels[customer.role]}</Text>
              {isAdmin && !isSelf && (
                <Button variant="light" size="compact-sm" onClick={roleDialog.open}>
                  Change role
                </Button>
              )}
            </Group>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Email</DataList.ItemLabel>
          <DataList.ItemValue>
            <EmailWithStatus email={customer.email} isVerified={customer.isEmailVerified} />
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Phone</DataList.ItemLabel>
          <DataList.ItemValue>{customer.phone ?? 'No phone number'}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Country</DataList.ItemLabel>
          <DataList.ItemValue>{customer.country}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Two-factor</DataList.ItemLabel>
          <DataList.ItemValue>{customer.hasTotp ? 'On' : 'Off'}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Member since</DataList.ItemLabel>
          <DataList.ItemValue>{formatDate(customer.createdAt)}</DataList.ItemValue>
        </DataList.Item>
        {customer.role === 'customer' && (
          <DataList.Item>
            <DataList.ItemLabel>Terms</DataList.ItemLabel>
            <DataList.ItemValue>
              {customer.termsAcceptance
                ? `Version ${customer.termsAcceptance.version} accepted ${formatDateTime(customer.termsAcceptance.acceptedAt)}`
                : 'Not accepted yet'}
            </DataList.ItemValue>
          </DataList.Item>
        )}
      </DataList>
      {isAdmin && (
        <>
          <FreezeDialog user={customer} opened={isFreezeOpen} onClose={freezeDialog.close} />
          <LevelDialog user={customer} opened={isLevelOpen} onClose={levelDialog.close} />
          {!isSelf && <RoleDialog user={customer} opened={isRoleOpen} onClose={roleDialog.close} />}
        </>
      )}
    </Card>
  );
}

const tabValues = [
  'transactions',
  'requests',
  'loans',
  'payouts',
  'bulk-payments',
  'kyc',
  'cards',
  'disputes',
  'messages',
  'audit',
] as const;
type TabValue = (typeof tabValues)[number];
const tabSchema = z.enum(tabValues);

function PendingBadge({ userId }: { userId: string }) {
  const requests = useQuery(customerMoneyRequestsQueryOptions(userId));
  const count =
    requests.data?.items.filter((request) => request.status === 'pending_approval').length ?? 0;
  if (count === 0) return null;
  return (
    <Badge size="sm" color="yellow" variant="light" aria-label={`${count} pending`}>
      {count}
    </Badge>
  );
}

function CustomerTabs({ userId }: { userId: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const parsedTab = tabSchema.safeParse(searchParams.get('tab'));
  const tab: TabValue = parsedTab.success ? parsedTab.data : 'transactions';
  return (
    <Tabs
      value={tab}
      onChange={(value) => {
        const next = tabSchema.safeParse(value);
        if (!next.success) return;
        setSearchParams(next.data === 'transactions' ? {} : { tab: next.data }, {
          replace: true,
          preventScrollReset: true,
        });
      }}
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="transactions">Transactions</Tabs.Tab>
        <Tabs.Tab value="requests" rightSection={<PendingBadge userId={userId} />}>
          Deposits & adjustments
        </Tabs.Tab>
        <Tabs.Tab value="loans">Pending Loan Requests</Tabs.Tab>
        <Tabs.Tab value="payouts">Payouts</Tabs.Tab>
        <Tabs.Tab value="bulk-payments">Bulk payments</Tabs.Tab>
        <Tabs.Tab value="kyc">KYC</Tabs.Tab>
        <Tabs.Tab value="cards">Cards</Tabs.Tab>
        <Tabs.Tab value="disputes">Disputes</Tabs.Tab>
        <Tabs.Tab value="messages">Messages</Tabs.Tab>
        <Tabs.Tab value="audit">Audit</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="transactions">
        <TransactionsTab userId={userId} />
      </Tabs.Panel>
      <Tabs.Panel value="requests">
        <MoneyRequestsTab userId={userId} />
      </Tabs.Panel>
      <Tabs.Panel value="loans">
        <CustomerLoansTab userId={userId} />
      </Tabs.Panel>
      <Tabs.Panel value="payouts">
        <CustomerPayoutsTab userId={userId} />
      </Tabs.Panel>
      <Tabs.Panel value="bulk-payments">
        <CustomerBulkPaymentsTab userId={userId} />
      </Tabs.Panel>
      <Tabs.Panel value="kyc">
        <CustomerKycTab userId={userId} />
      </Tabs.Panel>
      <Tabs.Panel value="cards">
        <CustomerCardsTab userId={userId} />
      </Tabs.Panel>
      <Tabs.Panel value="disputes">
        <CustomerDisputesTab userId={userId} />
      </Tabs.Panel>
      <Tabs.Panel value="messages">
        <CustomerMessagesTab userId={userId} />
      </Tabs.Panel>
      <Tabs.Panel value="audit">
        <AuditEventsTable label="Audit events" filter={{ subjectUserId: userId }} />
      </Tabs.Panel>
    </Tabs>
  );
}

function CustomerDetailView({ userId }: { userId: string }) {
  const customer = useQuery(customerDetailQueryOptions(userId));
  const isUnknown = customer.error instanceof ApiError && customer.error.status === 404;
  usePageTitle(
    customer.data?.legalName ?? customer.data?.username ?? (isUnknown ? 'Page not found' : 'User'),
  );

  if (customer.isPending) {
    return <LoadingState label="Loading the user" />;
  }
  if (customer.isError) {
    if (isUnknown) return <NotFoundContent isInsideShell />;
    return (
      <Stack gap="lg">
        <BackToUsers />
        <LoadFailed
          title="This user did not load"
          error={customer.error}
          isRetrying={customer.isFetching}
          onRetry={() => customer.refetch()}
        />
      </Stack>
    );
  }
  const detail = customer.data;
  return (
    <Stack gap="lg">
      <BackToUsers />
      <Stack gap={4}>
        <Group gap="sm" wrap="wrap">
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {detail.legalName ?? detail.username}
            {/* The name the customer goes by, beside the one their document shows. */}
            {detail.legalName !== null && (
              <Text span inherit c="dimmed" fw={400}>
                {' '}
                · {detail.username}
              </Text>
            )}
          </Title>
          <AccountStatusBadge isFrozen={detail.isFrozen} closedAt={detail.closedAt} />
          <StaffRoleBadge role={detail.role} />
        </Group>
        {detail.role === 'customer' && (
          <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {detail.legalName === null
              ? 'No verified legal name yet: the username is shown'
              : 'Legal name · username'}
          </Text>
        )}
        <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {detail.email} · {detail.phone ?? 'No phone number'}
        </Text>
      </Stack>
      {detail.wallet ? (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <MoneyFigure
            label="Account Balance"
            amountMinor={detail.wallet.balanceMinor}
            currency={detail.wallet.currency}
            isMain
          />
          <MoneyFigure
            label="Held"
            amountMinor={detail.wallet.heldMinor}
            currency={detail.wallet.currency}
          />
          <MoneyFigure
            label="Available"
            amountMinor={detail.wallet.availableMinor}
            currency={detail.wallet.currency}
          />
          <MoneyFigure
            label="Loan Balance"
            amountMinor={detail.wallet.loanBalanceMinor}
            currency={detail.wallet.currency}
          />
        </SimpleGrid>
      ) : (
        <Text>This person has no wallet.</Text>
      )}
      {detail.closedAt !== null && <ClosedAccountCard userId={detail.id} />}
      {detail.wallet && <CustomerWalletsCard userId={detail.id} />}
      {detail.pendingRoleGrant && (
        <RoleGrantCard customer={detail} grant={detail.pendingRoleGrant} />
      )}
      <CustomerSummary customer={detail} />
      {/* Nothing can be posted to a closed account (ADR 050); it is reopened first. */}
      {detail.wallet && detail.closedAt === null && (
        <AccountActionsCard
          target={{
            userId: detail.id,
            username: detail.username,
            currency: detail.wallet.currency,
            availableMinor: detail.wallet.availableMinor,
            fourEyesThresholdMinor: detail.wallet.fourEyesThresholdMinor,
            fourEyesDailyTotalMinor: detail.wallet.fourEyesDailyTotalMinor,
          }}
          otherActions={[
            {
              value: 'disburse_loan',
              label: 'Disburse loan',
              form: <DisburseLoanForm userId={detail.id} />,
            },
          ]}
        />
      )}
      <CustomerTabs userId={detail.id} />
    </Stack>
  );
}

/** Every wallet of the customer, with its balance (issue #33); most customers have one. */
function CustomerWalletsCard({ userId }: { userId: string }) {
  const headingId = useId();
  const wallets = useQuery(customerWalletsQueryOptions(userId));
  if (!wallets.data || wallets.data.items.length < 2) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="sm">
        Wallets
      </Title>
      <DataList labelWidth={220}>
        {wallets.data.items.map((wallet) => (
          <DataList.Item key={wallet.id}>
            <DataList.ItemLabel>
              {wallet.currency}
              {wallet.isMain ? ' (main)' : ''} · {wallet.accountNumber}
            </DataList.ItemLabel>
            <DataList.ItemValue>
              {formatAmountMinor(wallet.balanceMinor, wallet.currency)} (available{' '}
              {formatAmountMinor(wallet.availableMinor, wallet.currency)})
            </DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList>
    </Card>
  );
}

/** One customer: balances, account, staff actions and their history (PRODUCT.md section 2). */
export function CustomerDetailPage() {
  const { userId = '' } = useParams();
  // Ids are UUIDs; anything else cannot be a user, so it is a 404 without asking the server.
  if (!userIdSchema.safeParse(userId).success) return <NotFoundContent isInsideShell />;
  return <CustomerDetailView key={userId} userId={userId} />;
}
