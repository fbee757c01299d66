import { errorCodes } from '@coffer/contracts/errors';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { Navigate } from 'react-router';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { SignOutButton } from '../../../components/sign-out-button.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { homePathFor } from '../../../lib/return-to.ts';
import { useMe } from '../../../lib/session.ts';
import { useInstitutionName } from '../../../lib/site.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { termsQueryOptions, useAcceptTerms } from '../api.ts';
import { TermsDocument } from '../components/terms-document.tsx';

/** A refused acceptance in words: the terms changed (the new ones are shown), or why not. */
function refusalOf(error: Error | null): string | null {
  if (!error) return null;
  return (error instanceof ApiError && error.fields.version) || errorMessage(error);
}

/**
 * Where a customer goes before anything else once the operator has published terms they
 * have not accepted (a new version since they signed up): the API answers them nothing
 * else until they accept. Then their home page. Signing out is the other way out.
 */
export function AcceptTermsPage() {
  const { t } = useLingui();
  usePageTitle(t`Updated terms`);
  const me = useMe();
  const terms = useQuery(termsQueryOptions);
  const accept = useAcceptTerms();
  const institutionName = useInstitutionName();
  const published = terms.data?.terms;
  if (!me) return null;
  if (!me.mustAcceptTerms) return <Navigate to={homePathFor(me.role)} replace />;
  return (
    <Container size="sm" py="xl" px={{ base: 'sm', xs: 'md' }}>
      <Stack gap="lg">
        <Title order={1}>
          <Trans>Updated terms and privacy notice</Trans>
        </Title>
        <Alert
          color="blue"
          variant="light"
          icon={<FileText size={18} aria-hidden />}
          title={errorCodes.terms_acceptance_required.message}
        >
          <Text size="sm">
            <Trans>
              {institutionName} has published a new version. Your account and your money are as you
              left them; the app opens again once you accept.
            </Trans>
          </Text>
        </Alert>
        {terms.isPending && <LoadingState label={t`Loading the terms`} />}
        {terms.isError && (
          <LoadFailed
            title={t`The terms did not load`}
            error={terms.error}
            isRetrying={terms.isFetching}
            onRetry={() => terms.refetch()}
          />
        )}
        {published && (
          <>
            <TermsDocument terms={published} isOpen />
            <FormAlert message={refusalOf(accept.error)} />
            <Group justify="space-between" wrap="wrap-reverse" gap="sm">
              <SignOutButton />
              <Button
                onClick={() => accept.mutate({ version: published.version })}
                loading={accept.isPending}
              >
                <Trans>I accept the terms and privacy notice</Trans>
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Container>
  );
}
