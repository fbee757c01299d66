import { errorCodes } from '@coffer/contracts/errors';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Container, Group, Stack, Text, Title } from '@mantine/core';
import { KeyRound } from 'lucide-react';
import { Navigate } from 'react-router';
import { SignOutButton } from '../../../components/sign-out-button.tsx';
import { homePathFor } from '../../../lib/return-to.ts';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { ChangePasswordCard } from '../components/change-password-card.tsx';

/**
 * Where someone whose password was set by someone else (npm run create-admin) is sent
 * before anything else: the API answers them nothing but this change. Once it is done,
 * their home page.
 */
export function RequiredPasswordChangePage() {
  const { t } = useLingui();
  usePageTitle(t`Choose a new password`);
  const me = useMe();
  if (!me) return null;
  if (!me.mustChangePassword) return <Navigate to={homePathFor(me.role)} replace />;
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>
          <Trans>Choose a new password</Trans>
        </Title>
        <Alert
          color="orange"
          variant="light"
          icon={<KeyRound size={18} aria-hidden />}
          title={errorCodes.password_change_required.message}
        >
          <Text size="sm">
            <Trans>
              Whoever created your account has seen that password. Enter it once more as your
              current password and choose one only you know; everything else opens once it is
              changed.
            </Trans>
          </Text>
        </Alert>
        <ChangePasswordCard personalWords={[me.username, me.email]} />
        <Group>
          <SignOutButton />
        </Group>
      </Stack>
    </Container>
  );
}
