import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { errorMessage } from '../../../lib/api-client.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { emailSettingQueryOptions, saveEmailSetting } from '../api.ts';

/** The profile's switch for notification emails; security emails always go. */
export function NotificationEmailSwitch() {
  const { t } = useLingui();
  const headingId = useId();
  const queryClient = useQueryClient();
  const setting = useQuery(emailSettingQueryOptions);
  const save = useMutation({
    mutationFn: saveEmailSetting,
    onSuccess: (saved) => {
      queryClient.setQueryData(emailSettingQueryOptions.queryKey, saved);
      showSuccessToast(
        saved.wantsNotificationEmails ? t`Notification emails on` : t`Notification emails off`,
      );
    },
    onError: (error) => showErrorToast(errorMessage(error)),
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} id={headingId}>
          <Trans>Notification emails</Trans>
        </Title>
        <Switch
          label={t`Email me about money received, deposits, withdrawals, disputes and support replies`}
          checked={setting.data?.wantsNotificationEmails ?? true}
          disabled={setting.isPending || save.isPending}
          onChange={(event) =>
            save.mutate({ wantsNotificationEmails: event.currentTarget.checked })
          }
        />
        <Text size="sm" c="dimmed">
          <Trans>
            Security emails (a sign-in from a new device, password, two-factor or email changes)
            always go, whatever you choose here.
          </Trans>
        </Text>
      </Stack>
    </Card>
  );
}
