import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import { LoadingState } from './query-states.tsx';

/** The loader's name in the page's language (the label is a message, `msg`). */
function LoadingMessage({ label }: { label: MessageDescriptor }) {
  const { i18n } = useLingui();
  return <LoadingState label={i18n._(label)} />;
}

/**
 * A component whose code loads the first time it is shown, with a loader until then: for
 * a tab or form a page does not show on its first screen. Its code and everything only it
 * imports stay out of the page's first load (apps/web/budgets.json).
 */
export function onDemand<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  loadingLabel: MessageDescriptor,
): ComponentType<Props> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return (props: Props) => (
    <Suspense fallback={<LoadingMessage label={loadingLabel} />}>
      <Loaded {...props} />
    </Suspense>
  );
}

/** Shows its children from the first time `opened` is true on; nothing before. */
function FromFirstOpening({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened && !wasOpened) setWasOpened(true);
  return wasOpened ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/**
 * A dialog whose code loads when it first opens, and stays mounted from then on, so it
 * still animates its closing. Until its code is there, nothing shows.
 */
export function dialogOnDemand<Props extends { opened: boolean }>(
  load: () => Promise<ComponentType<Props>>,
): ComponentType<Props> {
  const Loaded = lazy(async () => ({ default: await load() }));
  return (props: Props) => (
    <FromFirstOpening opened={props.opened}>
      <Loaded {...props} />
    </FromFirstOpening>
  );
}
