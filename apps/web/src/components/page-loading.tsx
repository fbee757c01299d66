import { Center, Loader } from '@mantine/core';

/** A page whose code is still on its way: a spinner, centred, with an accessible name. */
export function PageLoading() {
  return (
    <Center mih="60vh">
      <Loader role="status" aria-label="Loading page" />
    </Center>
  );
}
