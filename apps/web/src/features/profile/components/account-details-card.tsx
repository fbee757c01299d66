import type { Profile } from '@coffer/contracts/profile';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Card, DataList, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Pencil } from 'lucide-react';
import { Link } from 'react-router';
import { EmailWithStatus } from '../../../components/email-with-status.tsx';
import { dialogOnDemand } from '../../../components/on-demand.tsx';
import { roleLabels } from '../../../components/staff-role-badge.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { intlLocale } from '../../../lib/i18n.ts';
import classes from './account-details-card.module.css';

// The edit dialogs, their forms and Mantine's Modal load when one first opens.
const EditUsernameDialog = dialogOnDemand(
  async () => (await import('./edit-username-dialog.tsx')).EditUsernameDialog,
);
const UpdateEmailDialog = dialogOnDemand(
  async () => (await import('./update-email-dialog.tsx')).UpdateEmailDialog,
);
const TimeZoneDialog = dialogOnDemand(
  async () => (await import('./time-zone-dialog.tsx')).TimeZoneDialog,
);

const kycLevel = 2;

/** The country's name in the page's language; the API's English one where Intl has none. */
function countryNameIn(profile: Profile, locale: string): string {
  const regionNames = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  return regionNames.of(profile.country) ?? profile.countryName;
}

function EditButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button
      variant="light"
      size="compact-sm"
      leftSection={<Pencil size={14} aria-hidden />}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}

/**
 * What only a customer has: a wallet's currency and number, and the level that sets their
 * limits. Staff hold no wallet and verify no identity, so their profile leaves these out.
 */
function WalletItems({ profile }: { profile: Profile }) {
  const level = profile.level;
  return (
    <>
      <DataList.Item>
        <DataList.ItemLabel>
          <Trans>Currency</Trans>
        </DataList.ItemLabel>
        <DataList.ItemValue>{profile.currency}</DataList.ItemValue>
      </DataList.Item>
      {profile.accountNumber && (
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Account number</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue ff="monospace">
            <bdi>{profile.accountNumber}</bdi>
          </DataList.ItemValue>
        </DataList.Item>
      )}
      <DataList.Item>
        <DataList.ItemLabel>
          <Trans>Account Level</Trans>
        </DataList.ItemLabel>
        <DataList.ItemValue>
          <Stack gap={2}>
            <Text fw={600}>
              <Trans>Level {level}</Trans>
            </Text>
            {profile.level < kycLevel && (
              <Text size="sm" c="dimmed">
                <Trans>
                  Verify your identity to reach level 2.{' '}
                  <Anchor component={Link} to="/kyc" size="sm" underline="always">
                    Upgrade
                  </Anchor>
                </Trans>
              </Text>
            )}
          </Stack>
        </DataList.ItemValue>
      </DataList.Item>
    </>
  );
}

export function AccountDetailsCard({ profile }: { profile: Profile }) {
  const { t, i18n } = useLingui();
  const pendingEmail = profile.pendingEmail;
  const [isEditingUsername, usernameDialog] = useDisclosure(false);
  const [isEditingEmail, emailDialog] = useDisclosure(false);
  const [isEditingTimeZone, timeZoneDialog] = useDisclosure(false);
  const headingId = 'account-details-heading';
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Account details</Trans>
      </Title>
      <DataList labelWidth={140} classNames={classes}>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Username</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>
            <Group gap="sm" justify="space-between" wrap="wrap">
              <Text style={{ overflowWrap: 'anywhere' }}>{profile.username}</Text>
              <EditButton label={t`Edit Username`} onClick={usernameDialog.open} />
            </Group>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Email</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>
            <Stack gap={6}>
              <Group gap="sm" justify="space-between" wrap="wrap">
                <EmailWithStatus email={profile.email} isVerified={profile.isEmailVerified} />
                <EditButton label={t`Update Email`} onClick={emailDialog.open} />
              </Group>
              {pendingEmail && (
                <Text size="sm" c="dimmed">
                  <Trans>
                    Changing to <strong>{pendingEmail}</strong>: follow the link we sent there to
                    finish.
                  </Trans>
                </Text>
              )}
            </Stack>
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Phone</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>
            {profile.phone ? <bdi>{profile.phone}</bdi> : t`Not given`}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Country</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>{countryNameIn(profile, intlLocale())}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Time zone</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>
            <Group gap="sm" justify="space-between" wrap="wrap">
              <Stack gap={2}>
                <Text style={{ overflowWrap: 'anywhere' }}>{profile.timeZone}</Text>
                {!profile.isTimeZoneChosen && (
                  <Text size="sm" c="dimmed">
                    <Trans>Not chosen yet: statements use this one.</Trans>
                  </Text>
                )}
              </Stack>
              <EditButton label={t`Edit Time Zone`} onClick={timeZoneDialog.open} />
            </Group>
          </DataList.ItemValue>
        </DataList.Item>
        {profile.role === 'customer' ? (
          <WalletItems profile={profile} />
        ) : (
          <DataList.Item>
            <DataList.ItemLabel>
              <Trans>Role</Trans>
            </DataList.ItemLabel>
            <DataList.ItemValue>{i18n._(roleLabels[profile.role])}</DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>
            <Trans>Member since</Trans>
          </DataList.ItemLabel>
          <DataList.ItemValue>{formatDate(profile.createdAt)}</DataList.ItemValue>
        </DataList.Item>
      </DataList>
      <EditUsernameDialog
        opened={isEditingUsername}
        currentUsername={profile.username}
        onClose={usernameDialog.close}
      />
      <UpdateEmailDialog
        opened={isEditingEmail}
        currentEmail={profile.email}
        onClose={emailDialog.close}
      />
      <TimeZoneDialog
        opened={isEditingTimeZone}
        current={profile.timeZone}
        onClose={timeZoneDialog.close}
      />
    </Card>
  );
}
