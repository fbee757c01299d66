import { type ComponentType, Suspense, use, useEffect, useState } from 'react';
import { hydratingServerPage } from '../lib/use-is-phone.ts';

/**
 * The code of a part of a page's first screen that loads beside the page's instead of with
 * it: out of the page's first load (apps/web/budgets.json), but asked for as soon as the
 * page's module runs (`loadBesidePage` at its top level), not when the part first renders.
 * The part never shows a loader of its own:
 *
 * - On a page the server rendered, the server waits for the code (`prerender`), and in the
 *   browser the part stays as the server drew it until its code is in, then hydrates; the
 *   rest of the page does not wait for it.
 * - Where the browser renders the page itself, the page holds its own loading state until
 *   `useBesidePageReady` is true, so the part appears with the rest and nothing moves.
 */
export type BesidePageCode<Props extends object> = {
  code: Promise<ComponentType<Props>>;
  loaded: ComponentType<Props> | null;
};

export function loadBesidePage<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
): BesidePageCode<Props> {
  const part: BesidePageCode<Props> = {
    code: load().then((component) => {
      part.loaded = component;
      // React's own marks on a settled promise: `use` reads it without suspending, so a
      // page the browser renders once the code is in draws the part in its first render.
      Object.assign(part.code, { status: 'fulfilled', value: component });
      return component;
    }),
    loaded: null,
  };
  // A failure shows where the part renders (the route's error page), not as an unhandled
  // rejection on a page that does not render it.
  part.code.catch(() => undefined);
  return part;
}

function LoadedPart<Props extends object>({
  part,
  props,
}: {
  part: BesidePageCode<Props>;
  props: Props;
}) {
  const Loaded = use(part.code);
  return <Loaded {...props} />;
}

/** The part, drawn by its code once loaded (or as the server drew it until then). */
export function BesidePage<Props extends object>({
  part,
  props,
}: {
  part: BesidePageCode<Props>;
  props: Props;
}) {
  return (
    <Suspense fallback={null}>
      <LoadedPart part={part} props={props} />
    </Suspense>
  );
}

/**
 * Whether the page may draw the part now: at once on the server and while hydrating a
 * server-rendered page, otherwise once its code is in.
 */
export function useBesidePageReady<Props extends object>(part: BesidePageCode<Props>): boolean {
  const [isReady, setIsReady] = useState(
    () => part.loaded !== null || typeof window === 'undefined' || hydratingServerPage(),
  );
  useEffect(() => {
    if (isReady) return;
    let isCurrent = true;
    const ready = () => {
      if (isCurrent) setIsReady(true);
    };
    part.code.then(ready, ready);
    return () => {
      isCurrent = false;
    };
  }, [isReady, part]);
  return isReady;
}
