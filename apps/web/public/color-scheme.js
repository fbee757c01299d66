// Runs before a server-rendered page paints (landing.html, index.html): applies the colour
// scheme chosen in the app, which Mantine keeps in localStorage under the key
// `colorSchemeStorageKey` of src/app/providers.tsx ("light", "dark" or "auto").
(() => {
  let choice = 'light';
  try {
    choice = window.localStorage.getItem('coffer-color-scheme') || 'light';
  } catch {
    // Storage can be off (private modes, policies); the page stays light.
  }
  const prefersDark = window.matchMedia('(prefers-color-scheme: dark)').matches;
  const scheme = choice === 'auto' ? (prefersDark ? 'dark' : 'light') : choice;
  document.documentElement.dataset.mantineColorScheme = scheme === 'dark' ? 'dark' : 'light';
})();
