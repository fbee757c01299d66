import type { CustomerDetail } from '@coffer/contracts/admin';
import type { StaffWalletList } from '@coffer/contracts/wallets';
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
  useDirection,
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
import { StaffRoleBadge } from '../../../components/staff-role-badge.tsx';
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
import { AccountStatusBadge, mirroredIn, roleNames } from '../components/badges.tsx';
import { FreezeDialog, LevelDialog, RoleDialog } from '../components/dialogs-on-demand.ts';
import { RoleGrantCard } from '../components/role-grant-card.tsx';
import { TransactionsTab } from '../components/transactions-tab.tsx';

const userIdSchema = z.uuid();

function BackToUsers() {
  const { dir } = useDirection();
  return (
    <Anchor component={Link} to="/admin" size="sm">
      <Group gap={4} wrap="nowrap" component="span">
        {/* An arrow that points back: the other way in a right-to-left page. */}
        <ArrowLeft size={16} aria-hidden style={mirroredIn(dir)} />
        <Trans>Back to Users</Trans>
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
  const { t } = useLingui();
  return (
    <Group gap="xs" wrap="wrap">
      <Text ff="monospace">{accountNumber}</Text>
      <CopyButton value={accountNumber} accessibleName={t`Copy account number`} />
    </Group>
  );
}

function TermsAccepted({
  acceptance,
}: {
  acceptance: NonNullable<CustomerDetail['termsAcceptance']>;
}) {
  const version = acceptance.version;
  const acceptedAt = formatDateTime(acceptance.acceptedAt);
  return (
    <Trans>
      Version {version} accepted {acceptedAt}
    </Trans>
  );
}

function CustomerSummary({ customer }: { customer: CustomerDetail }) {
  const { i18n } = useLingui();
  const { level, frozenReason } = customer;
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
        <Trans>Account</Trans>
      </Title>
      <DataList labelWidth={150}>
        {customer.wallet && (
          <DataList.Item>
            <DataList.ItemLabel>
              <Trans>Account number</Trans>
            </DataList.ItemLabel>
            <DataList.ItemValue>
              <AccountNumber accountNumber={customer.wallet.accountNumber} />
            </DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Level</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>
            <Group gap="sm" wrap="wrap">
              <Text fw={600}>
                <Trans>Level {level}</Trans>
              </Text>
              {isAdmin && (
                <Button variant="light" size="compact-sm" onClick={levelDialog.open}>
                  <Trans>Set Level</Trans>
                </Button>
              )}
            </Group>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Status</Trans>
          </DataList.ItemLabel>
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
                    {customer.isFrozen ? <Trans>Unfreeze</Trans> : <Trans>Freeze</Trans>}
                  </Button>
                )}
              </Group>
              {customer.frozenReason !== null && (
                <Text size="sm">
                  <Trans>Reason: {frozenReason}</Trans>
                </Text>
              )}
            </Stack>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Role</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>
            <Group gap="sm" wrap="wrap">
              <Text>{i18n._(roleNames[customer.role])}</Text>
              {isAdmin && !isSelf && (
                <Button variant="light" size="compact-sm" onClick={roleDialog.open}>
                  <Trans>Change role</Trans>
                </Button>
              )}
            </Group>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Email</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>
            <EmailWithStatus email={customer.email} isVerified={customer.isEmailVerified} />
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Phone</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>
            {/* "+49…" keeps its plus in front in a right-to-left page. */}
            {customer.phone ? <bdi>{customer.phone}</bdi> : <Trans>No phone number</Trans>}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Country</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>{customer.country}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Two-factor</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>
            {customer.hasTotp ? <Trans>On</Trans> : <Trans>Off</Trans>}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Member since</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>{formatDate(customer.createdAt)}</DataList.ItemValue>
        </DataList.Item>
        {customer.role === 'customer' && (
          <DataList.Item>
            <DataList.ItemLabel>
              <Trans>Terms</Trans>
            </DataList.ItemLabel>
            <DataList.ItemValue>
              {customer.termsAcceptance ? (
                <TermsAccepted acceptance={customer.termsAcceptance} />
              ) : (
                <Trans>Not accepted yet</Trans>
              )}
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
const tabLabels: Record<TabValue, MessageDescriptor> = {
  transactions: msg`Transactions`,
  requests: msg`Deposits & adjustments`,
  loans: msg`Pending Loan Requests`,
  payouts: msg`Payouts`,
  'bulk-payments': msg`Bulk payments`,
  kyc: msg`KYC`,
  cards: msg`Cards`,
  disputes: msg`Disputes`,
  messages: msg`Messages`,
  audit: msg`Audit`,
};
const tabSchema = z.enum(tabValues);

function PendingBadge({ userId }: { userId: string }) {
  const { t } = useLingui();
  const requests = useQuery(customerMoneyRequestsQueryOptions(userId));
  const count =
    requests.data?.items.filter((request) => request.status === 'pending_approval').length ?? 0;
  if (count === 0) return null;
  return (
    <Badge
      size="sm"
      color="yellow"
      variant="light"
      aria-label={t`${plural(count, { one: '# pending', other: '# pending' })}`}
    >
      {count}
    </Badge>
  );
}

function CustomerTabs({ userId }: { userId: string }) {
  const { t, i18n } = useLingui();
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
        {tabValues.map((value) => (
          <Tabs.Tab
            key={value}
            value={value}
            rightSection={value === 'requests' ? <PendingBadge userId={userId} /> : undefined}
          >
            {i18n._(tabLabels[value])}
          </Tabs.Tab>
        ))}
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
        <AuditEventsTable label={t`Audit events`} filter={{ subjectUserId: userId }} />
      </Tabs.Panel>
    </Tabs>
  );
}

function CustomerDetailView({ userId }: { userId: string }) {
  const { t } = useLingui();
  const customer = useQuery(customerDetailQueryOptions(userId));
  const isUnknown = customer.error instanceof ApiError && customer.error.status === 404;
  usePageTitle(
    customer.data?.legalName ??
      customer.data?.username ??
      (isUnknown ? t`Page not found` : t`User`),
  );

  if (customer.isPending) {
    return <LoadingState label={t`Loading the user`} />;
  }
  if (customer.isError) {
    if (isUnknown) return <NotFoundContent isInsideShell />;
    return (
      <Stack gap="lg">
        <BackToUsers />
        <LoadFailed
          title={t`This user did not load`}
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
            {detail.legalName === null ? (
              <Trans>No verified legal name yet: the username is shown</Trans>
            ) : (
              <Trans>Legal name · username</Trans>
            )}
          </Text>
        )}
        <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          <bdi>{detail.email}</bdi> ·{' '}
          {detail.phone ? <bdi>{detail.phone}</bdi> : <Trans>No phone number</Trans>}
        </Text>
      </Stack>
      {detail.wallet ? (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <MoneyFigure
            label={t`Account Balance`}
            amountMinor={detail.wallet.balanceMinor}
            currency={detail.wallet.currency}
            isMain
          />
          <MoneyFigure
            label={t`Held`}
            amountMinor={detail.wallet.heldMinor}
            currency={detail.wallet.currency}
          />
          <MoneyFigure
            label={t`Available`}
            amountMinor={detail.wallet.availableMinor}
            currency={detail.wallet.currency}
          />
          <MoneyFigure
            label={t`Loan Balance`}
            amountMinor={detail.wallet.loanBalanceMinor}
            currency={detail.wallet.currency}
          />
        </SimpleGrid>
      ) : (
        <Text>
          <Trans>This person has no wallet.</Trans>
        </Text>
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
              label: t`Disburse loan`,
              form: <DisburseLoanForm userId={detail.id} />,
            },
          ]}
        />
      )}
      <CustomerTabs userId={detail.id} />
    </Stack>
  );
}

type StaffWallet = StaffWalletList['items'][number];

function WalletName({ wallet }: { wallet: StaffWallet }) {
  const { currency } = wallet;
  const accountNumber = <bdi>{wallet.accountNumber}</bdi>;
  return wallet.isMain ? (
    <Trans>
      {currency} (main) · {accountNumber}
    </Trans>
  ) : (
    <>
      {currency} · {accountNumber}
    </>
  );
}

function WalletBalance({ wallet }: { wallet: StaffWallet }) {
  const balance = <bdi>{formatAmountMinor(wallet.balanceMinor, wallet.currency)}</bdi>;
  const available = <bdi>{formatAmountMinor(wallet.availableMinor, wallet.currency)}</bdi>;
  return (
    <Trans>
      {balance} (available {available})
    </Trans>
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
        <Trans>Wallets</Trans>
      </Title>
      <DataList labelWidth={220}>
        {wallets.data.items.map((wallet) => (
          <DataList.Item key={wallet.id}>
            <DataList.ItemLabel>
              <WalletName wallet={wallet} />
            </DataList.ItemLabel>
            <DataList.ItemValue>
              <WalletBalance wallet={wallet} />
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
