// Starts the app on a page the server rendered (src/app-server.tsx, docs/decisions/011),
// once the browser has painted it: the server's HTML appears first, instead of after the
// app's code has downloaded and run. Then every module the page needs is requested at
// once, not one import after another. The chunks the entry imports are evaluated first, one
// task each, in the order the entry would evaluate them (docs/decisions/031): evaluated with
// the entry they made one task of about 25 ms of CPU, which a slow phone multiplies.

/**
 * Until the app has taken the page over (it removes `data-server-rendered`), a submit would
 * be the browser's own: a reload that loses what was typed. It is held back instead, and
 * sent again, through the app's handler, once the app has hydrated the form. Returns what
 * stops holding, for an app that cannot load: the page is then the plain HTML one.
 */
function holdSubmitUntilTakeover(root) {
  let heldForm = null;
  const hold = (event) => {
    if (!root.hasAttribute('data-server-rendered') || !(event.target instanceof HTMLFormElement))
      return;
    event.preventDefault();
    heldForm = event.target;
  };
  document.addEventListener('submit', hold, true);
  const takeover = new MutationObserver(() => {
    if (root.hasAttribute('data-server-rendered')) return;
    release();
    if (heldForm?.isConnected) heldForm.requestSubmit();
  });
  takeover.observe(root, { attributes: true, attributeFilter: ['data-server-rendered'] });
  function release() {
    takeover.disconnect();
    document.removeEventListener('submit', hold, true);
  }
  return release;
}

(() => {
  const {
    appEntry,
    appModules = '',
    appEvaluateFirst = '',
  } = document.currentScript?.dataset ?? {};
  if (!appEntry) return;
  // Until the app has taken the page over (src/main.tsx), its buttons have no handlers and
  // its inputs would be reset: the page is inert (shown, scrollable, but not clickable or
  // focusable) instead of taking clicks and keys it would lose. Without JavaScript this
  // never runs, and the page's links work as plain HTML.
  const root = document.getElementById('root');
  // A visitor's form (sign-up, sign-in: docs/decisions/056) takes typing at once instead:
  // hydration keeps what was typed. Only a submit must wait for the app, which then sends it.
  const isTypeable = root?.hasAttribute('data-input-before-start') ?? false;
  if (!isTypeable) root?.setAttribute('inert', '');
  const stopHoldingSubmits = isTypeable ? holdSubmitUntilTakeover(root) : () => {};
  // If the app cannot load, the page stays what it is without JavaScript: its links work.
  const giveUp = () => {
    root?.removeAttribute('inert');
    stopHoldingSubmits();
  };
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
  const runEntry = () => {
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = appEntry;
    script.onerror = giveUp;
    document.head.append(script);
  };
  const start = async () => {
    // One insertion for all of them: the page's style is worked out once, not per link.
    const preloads = document.createDocumentFragment();
    for (const url of appModules.split(' ').filter(Boolean)) {
      const preload = document.createElement('link');
      preload.rel = 'modulepreload';
      preload.crossOrigin = '';
      preload.href = url;
      preloads.append(preload);
    }
    document.head.append(preloads);
    try {
      // Each import evaluates only its own chunk: what it imports came earlier in the list.
      for (const url of appEvaluateFirst.split(' ').filter(Boolean)) {
        await import(url);
        await nextTask();
      }
    } catch {
      return giveUp();
    }
    runEntry();
  };
  // A frame's callback runs just before it paints; a task queued there runs after.
  requestAnimationFrame(() => setTimeout(() => void start(), 0));
})();
