import { auditActions } from '@coffer/contracts/audit';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, CloseButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { z } from 'zod/mini';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { customerDetailQueryOptions } from '../../../lib/back-office.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import type { AuditFilter } from '../api.ts';
import { auditActionNames } from '../components/action-names.ts';
import { AuditEventsTable } from '../components/audit-events-table.tsx';

const actionSchema = z.enum(auditActions);
const userIdSchema = z.uuid();

type PersonParam = 'actor' | 'subject';

function parseFilter(searchParams: URLSearchParams): AuditFilter {
  const action = actionSchema.safeParse(searchParams.get('action'));
  const actor = userIdSchema.safeParse(searchParams.get('actor'));
  const subject = userIdSchema.safeParse(searchParams.get('subject'));
  return {
    action: action.success ? action.data : undefined,
    actorUserId: actor.success ? actor.data : undefined,
    subjectUserId: subject.success ? subject.data : undefined,
  };
}

/** A filter on one person, named (looked up by id) with a way to remove it. */
function PersonFilter({
  param,
  userId,
  onClear,
}: {
  param: PersonParam;
  userId: string;
  onClear: () => void;
}) {
  const { t } = useLingui();
  const person = useQuery(customerDetailQueryOptions(userId));
  const name = person.data?.username ?? (person.isError ? t`Unknown user` : '…');
  const shown = <strong>{name}</strong>;
  return (
    <Paper withBorder px="sm" py={4} radius="xl">
      <Group gap={6} wrap="nowrap">
        <Text size="sm">
          {param === 'actor' ? <Trans>By: {shown}</Trans> : <Trans>On: {shown}</Trans>}
        </Text>
        <CloseButton
          size="sm"
          aria-label={
            param === 'actor' ? t`Remove the filter by ${name}` : t`Remove the filter on ${name}`
          }
          onClick={onClear}
        />
      </Group>
    </Paper>
  );
}

/** Every staff and security-relevant action, newest first; read-only for everyone. */
export function AuditLogPage() {
  const { t, i18n } = useLingui();
  usePageTitle(t`Audit log`);
  const actionChoices = auditActions.map((action) => ({
    value: action,
    label: i18n._(auditActionNames[action]),
  }));
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = parseFilter(searchParams);

  const update = (name: 'action' | PersonParam, value: string | null) => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { preventScrollReset: true },
    );
  };
  const hasFilter =
    filter.action !== undefined ||
    filter.actorUserId !== undefined ||
    filter.subjectUserId !== undefined;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Audit log</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            Every staff and security-relevant action: who, what, to whom, and why. Nobody can edit
            or delete it. Select a name to see only that person's entries.
          </Trans>
        </Text>
      </Stack>
      <Group gap="sm" align="flex-end" wrap="wrap">
        {/* The browser's own list, which jumps to an action as its first letters are typed;
            "All actions" takes the filter off. */}
        <ChoiceSelect
          label={t`Action`}
          placeholder={t`All actions`}
          data={actionChoices}
          value={filter.action ?? null}
          onChange={(value) => update('action', value)}
          isOptional
          w={{ base: '100%', xs: 320 }}
        />
        {filter.actorUserId && (
          <PersonFilter
            param="actor"
            userId={filter.actorUserId}
            onClear={() => update('actor', null)}
          />
        )}
        {filter.subjectUserId && (
          <PersonFilter
            param="subject"
            userId={filter.subjectUserId}
            onClear={() => update('subject', null)}
          />
        )}
        {hasFilter && (
          <Button
            variant="subtle"
            onClick={() => setSearchParams({}, { preventScrollReset: true })}
          >
            <Trans>Clear filters</Trans>
          </Button>
        )}
      </Group>
      <AuditEventsTable
        label={t`Audit events`}
        filter={filter}
        onFilterActor={(person) => update('actor', person.id)}
        onFilterSubject={(person) => update('subject', person.id)}
      />
    </Stack>
  );
}
