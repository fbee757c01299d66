import { useLingui } from '@lingui/react/macro';
import { Center, Loader } from '@mantine/core';

/** A page whose code is still on its way: a spinner, centred, with an accessible name. */
export function PageLoading() {
  const { t } = useLingui();
  return (
    <Center mih="60vh">
      <Loader aria-label={t`Loading page`} />
    </Center>
  );
}
