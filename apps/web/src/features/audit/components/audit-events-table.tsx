import type { AuditEvent } from '@coffer/contracts/audit';
import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Anchor, Group, Stack, Text, useDirection } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { ArrowUpRight } from 'lucide-react';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, LoadMore, NothingFound } from '../../../components/query-states.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { type AuditFilter, auditQueryOptions } from '../api.ts';
import { auditActionNames } from './action-names.ts';
import { describeChange } from './audit-change.ts';

type Person = { id: string; username: string };

// Long values (a fingerprint, an address) wrap inside their column instead of widening it.
const wrapAnywhere = { overflowWrap: 'anywhere' } as const;

function linesOf(event: AuditEvent, i18n: I18n) {
  return describeChange(event.before, event.after, i18n, event.subject?.id ?? null);
}

function ChangeCell({ event }: { event: AuditEvent }) {
  const { i18n } = useLingui();
  // From the value before to the one after, the way the page reads.
  const arrow = useDirection().dir === 'rtl' ? '←' : '→';
  const lines = linesOf(event, i18n);
  if (lines.length === 0) return <Text size="sm">—</Text>;
  return (
    <Stack gap={2}>
      {lines.map((line) => (
        <Text size="sm" key={line.label} style={wrapAnywhere}>
          {line.label}:{' '}
          {line.before !== undefined && (
            <>
              <Text span size="sm" c="dimmed" td="line-through">
                {line.before}
              </Text>{' '}
              {arrow}{' '}
            </>
          )}
          {line.link ? (
            <Anchor component={Link} to={line.link} size="sm" fw={600}>
              {line.after ?? '—'}
            </Anchor>
          ) : (
            <Text span size="sm" fw={600}>
              {line.after ?? '—'}
            </Text>
          )}
        </Text>
      ))}
    </Stack>
  );
}

/** A name that narrows the log to that person, when the log can be filtered. */
function PersonButton({
  person,
  filterLabel,
  onFilter,
}: {
  person: Person;
  /** What the button does, for screen readers: "Show only actions by lee". */
  filterLabel: (username: string) => string;
  onFilter: ((person: Person) => void) | undefined;
}) {
  if (!onFilter) {
    return (
      <Text size="sm" style={wrapAnywhere}>
        {person.username}
      </Text>
    );
  }
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      ta="left"
      style={wrapAnywhere}
      onClick={() => onFilter(person)}
      aria-label={filterLabel(person.username)}
    >
      {person.username}
    </Anchor>
  );
}

/**
 * The audit log, newest first, with readable before/after. On the audit page names filter
 * the log; on a customer's page the subject is that customer and is left out.
 */
export function AuditEventsTable({
  label,
  filter,
  onFilterActor,
  onFilterSubject,
}: {
  label: string;
  filter: AuditFilter;
  onFilterActor?: (person: Person) => void;
  onFilterSubject?: (person: Person) => void;
}) {
  const { t, i18n } = useLingui();
  const openLabel = (username: string) => t`Open ${username}`;
  // "Open" points up and onwards: onwards is to the left in a right-to-left page.
  const openIconStyle = useDirection().dir === 'rtl' ? { transform: 'scaleX(-1)' } : undefined;
  const events = useInfiniteQuery(auditQueryOptions(filter));
  const isSubjectShown = filter.subjectUserId === undefined || onFilterSubject !== undefined;
  const columns: Column<AuditEvent>[] = [
    { key: 'action', header: t`What`, cell: (event) => i18n._(auditActionNames[event.action]) },
    {
      key: 'actor',
      header: t`Who`,
      cell: (event) =>
        event.actor ? (
          <Stack gap={0} align="flex-start">
            <PersonButton
              person={event.actor}
              filterLabel={(username) => t`Show only actions by ${username}`}
              onFilter={onFilterActor}
            />
            {event.ipAddress && (
              <Text size="xs" c="dimmed" ff="monospace">
                {event.ipAddress}
              </Text>
            )}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            <Trans>System</Trans>
          </Text>
        ),
    },
    ...(isSubjectShown
      ? [
          {
            key: 'subject',
            header: t`Whom`,
            cell: (event: AuditEvent) =>
              event.subject ? (
                <Group gap={4} wrap="nowrap" align="flex-start">
                  <PersonButton
                    person={event.subject}
                    filterLabel={(username) => t`Show only actions on ${username}`}
                    onFilter={onFilterSubject}
                  />
                  <ActionIcon
                    component={Link}
                    to={`/admin/users/${event.subject.id}`}
                    variant="subtle"
                    size="sm"
                    aria-label={openLabel(event.subject.username)}
                  >
                    <ArrowUpRight size={14} aria-hidden style={openIconStyle} />
                  </ActionIcon>
                </Group>
              ) : (
                '—'
              ),
          },
        ]
      : []),
    {
      key: 'change',
      header: t`Before → after`,
      isEmpty: (event) => linesOf(event, i18n).length === 0,
      cell: (event) => <ChangeCell event={event} />,
    },
    {
      key: 'reason',
      header: t`Reason`,
      isEmpty: (event) => event.reason === null,
      cell: (event) => <span style={wrapAnywhere}>{event.reason ?? '—'}</span>,
    },
    {
      key: 'time',
      header: t`Time`,
      cell: (event) => (
        <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.createdAt)}</span>
      ),
    },
  ];

  if (events.isPending) return <LoadingState label={t`Loading the audit log`} />;
  if (events.isError) {
    return (
      <LoadFailed
        title={t`The audit log did not load`}
        error={events.error}
        isRetrying={events.isFetching}
        onRetry={() => events.refetch()}
      />
    );
  }
  const rows = events.data.pages.flatMap((page) => page.items);
  if (rows.length === 0) return <NothingFound title={t`No audit events found`} />;
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={rows}
        rowKey={(event) => event.id}
        minWidth={760}
      />
      <LoadMore
        hasNextPage={events.hasNextPage}
        isFetchingNextPage={events.isFetchingNextPage}
        onLoadMore={() => events.fetchNextPage()}
      />
    </>
  );
}
