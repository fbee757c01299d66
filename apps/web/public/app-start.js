// Starts the app on a page the server rendered (src/app-server.tsx, docs/decisions/011),
// once the browser has painted it: the server's HTML appears first, instead of after the
// app's code has downloaded and run. Then every module the page needs is requested at
// once, not one import after another.
(() => {
  const { appEntry, appModules = '' } = document.currentScript?.dataset ?? {};
  if (!appEntry) return;
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
    elements.append(script);
    document.head.append(elements);
  };
  // A frame's callback runs just before it paints; a task queued there runs after.
  requestAnimationFrame(() => setTimeout(start, 0));
})();
