import { errorCodes } from '@coffer/contracts/errors';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Text } from '@mantine/core';
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { backOfficePathOf, mustSetUpTwoFactor, useMe } from '../../../lib/session.ts';

/**
 * For staff whose installation requires two-factor (COFFER_STAFF_TWO_FACTOR): why they were
 * sent here instead of the back office, and once it is on, the way back to the page they
 * asked for. `wasAsked`: the page opened while two-factor was still off.
 */
export function TwoFactorRequiredNotice({ wasAsked }: { wasAsked: boolean }) {
  const { t } = useLingui();
  const me = useMe();
  const location = useLocation();
  if (!me?.isTwoFactorRequired) return null;
  if (mustSetUpTwoFactor(me)) {
    return (
      <Alert
        color="orange"
        variant="light"
        icon={<ShieldAlert size={18} aria-hidden />}
        title={errorCodes.staff_two_factor_required.message}
      >
        <Text size="sm">
          <Trans>
            Staff accounts need a code from an authenticator app at each login. Set it up below: the
            back office opens as soon as it is on.
          </Trans>
        </Text>
      </Alert>
    );
  }
  if (!wasAsked) return null;
  return (
    <Alert
      color="green"
      variant="light"
      icon={<ShieldCheck size={18} aria-hidden />}
      title={t`Two-factor authentication is on`}
    >
      <Button component={Link} to={backOfficePathOf(location.state) ?? '/admin'} size="sm" mt={4}>
        <Trans>Go to the back office</Trans>
      </Button>
    </Alert>
  );
}
