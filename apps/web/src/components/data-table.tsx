import { Box, Group, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { ByScreen } from './by-screen.tsx';
import { CardList } from './card-list.tsx';

export type Column<Row> = {
  key: string;
  header: string;
  /** The header is for screen readers only (an actions column). */
  isHeaderHidden?: boolean;
  /** Where the column's text sits; `right` (amounts) is the line's end, mirrored in Arabic. */
  align?: 'left' | 'right';
  cell: (row: Row) => ReactNode;
  /** On a phone's card, a line with nothing to say is left out. */
  isEmpty?: (row: Row) => boolean;
};

/** Left and right as the start and end of a line, so a right-to-left page mirrors them. */
const textAlignOf = { left: 'start', right: 'end' } as const;

type DataTableProps<Row> = {
  /** Names the table (or list) for screen readers. */
  label: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Below this width the table scrolls inside its box instead of squeezing its columns. */
  minWidth?: number;
};

/**
 * A table on wider screens; on a phone each row becomes a card of label/value lines, so no
 * column hides off-screen. The first column is the card's title.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  return <ByScreen phone={<RowCards {...props} />} wide={<RowsTable {...props} />} />;
}

function RowCards<Row>({ label, columns, rows, rowKey }: DataTableProps<Row>) {
  const [titleColumn, ...otherColumns] = columns;
  return (
    <CardList label={label}>
      {rows.map((row) => (
        <Paper component="li" withBorder p="sm" key={rowKey(row)}>
          <Stack gap={6}>
            {titleColumn && (
              <Box fw={600} style={{ overflowWrap: 'anywhere' }}>
                {titleColumn.cell(row)}
              </Box>
            )}
            {otherColumns.map((column) =>
              column.isEmpty?.(row) ? null : column.isHeaderHidden ? (
                <Box key={column.key} pt={4}>
                  {column.cell(row)}
                </Box>
              ) : (
                <Group
                  key={column.key}
                  justify="space-between"
                  align="flex-start"
                  wrap="nowrap"
                  gap="sm"
                >
                  <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                    {column.header}
                  </Text>
                  <Box
                    fz="sm"
                    ta="end"
                    style={{ minWidth: 0, overflowWrap: 'anywhere' }}
                    component="div"
                  >
                    {column.cell(row)}
                  </Box>
                </Group>
              ),
            )}
          </Stack>
        </Paper>
      ))}
    </CardList>
  );
}

function RowsTable<Row>({ label, columns, rows, rowKey, minWidth = 720 }: DataTableProps<Row>) {
  return (
    <Table.ScrollContainer minWidth={minWidth} type="native">
      <Table aria-label={label} verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} ta={textAlignOf[column.align ?? 'left']}>
                {column.isHeaderHidden ? (
                  <VisuallyHidden>{column.header}</VisuallyHidden>
                ) : (
                  column.header
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((column) => (
                <Table.Td key={column.key} ta={textAlignOf[column.align ?? 'left']} fz="sm">
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
