import { useLingui } from '@lingui/react/macro';
import { Anchor, Group, Text, ThemeIcon } from '@mantine/core';
import { Landmark } from 'lucide-react';
import { Link } from 'react-router';
import { useInstitutionName } from '../lib/site.ts';

/** The logo and the operator's institution name, linking home. */
export function Brand() {
  const institutionName = useInstitutionName();
  const { t } = useLingui();
  return (
    <Anchor
      component={Link}
      to="/"
      underline="never"
      c="inherit"
      aria-label={t`${institutionName} home`}
      miw={0}
      style={{ flexShrink: 1 }}
    >
      <Group gap={8} wrap="nowrap" miw={0}>
        <ThemeIcon size={30} radius="md" aria-hidden>
          <Landmark size={18} />
        </ThemeIcon>
        {/* A long institution name wraps to a second line on a phone rather than overflow. */}
        <Text component="span" fw={700} fz="lg" lh={1.2} miw={0} lineClamp={2}>
          {institutionName}
        </Text>
      </Group>
    </Anchor>
  );
}
