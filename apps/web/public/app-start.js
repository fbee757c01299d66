// Starts the app on a page the server rendered (src/app-server.tsx, docs/decisions/011),
// once the browser has painted it: the server's HTML appears first, instead of after the
// app's code has downloaded and run. Then every module the page needs is requested at
// once, not one import after another.
(() => {
  const { appEntry, appModules = '' } = document.currentScript?.dataset ?? {};
  if (!appEntry) return;
  // Until the app has taken the page over (src/main.tsx), its buttons have no handlers and
  // its inputs would be reset: the page is inert (shown, scrollable, but not clickable or
  // focusable) instead of taking clicks and keys it would lose. Without JavaScript this
  // never runs, and the page's links work as plain HTML.
  const root = document.getElementById('root');
  root?.setAttribute('inert', '');
  const start = () => {
    // One insertion for all of them: the page's style is worked out once, not per link.
    const elements = document.createDocumentFragment();
    for (const url of appModules.split(' ').filter(Boolean)) {
      const preload = document.createElement('link');
      preload.rel = 'modulepreload';
      preload.crossOrigin = '';
      preload.href = url;
      elements.append(preload);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = appEntry;
    // If the app cannot load, the page stays what it is without JavaScript: its links work.
    script.onerror = () => root?.removeAttribute('inert');
    elements.append(script);
    document.head.append(elements);
  };
  // A frame's callback runs just before it paints; a task queued there runs after.
  requestAnimationFrame(() => setTimeout(start, 0));
})();
