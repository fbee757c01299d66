import { useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { booksAlertsQueryOptions } from '../api.ts';

/**
 * The staff home's warning that a closed day's books did not balance or that the ledger
 * check failed at its close: nothing at all while every day is right.
 */
export function BooksAlerts() {
  const { t } = useLingui();
  const alerts = useQuery(booksAlertsQueryOptions);
  const items = alerts.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Alert color="red" title={t`The books need attention`} data-testid="books-alert">
      {items.map((item) => (
        <Text key={item.date} size="sm">
          <Anchor component={Link} to={`/admin/books?date=${item.date}`}>
            <bdi>{item.date}</bdi>
          </Anchor>
          : {item.problems.join('; ')}
        </Text>
      ))}
    </Alert>
  );
}
