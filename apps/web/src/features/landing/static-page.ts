/**
 * What the server-rendered landing page does in the browser without React (docs/decisions
 * 009): the product tour's steps and the header's phone menu. The markup is Mantine's, as
 * the app renders it; these follow the WAI-ARIA tabs and menu-button patterns as Mantine
 * does, so the page behaves as it does inside the app.
 */

/** The gap between the menu button and its menu, as Mantine's Popover leaves it. */
const menuOffsetPx = 8;

/**
 * Where a key moves in a list of `count` items from `index` (-1: from none), wrapping
 * around; null when the key does not move.
 */
function movedIndex(key: string, index: number, count: number, keys: [string, string]) {
  const [previousKey, nextKey] = keys;
  if (key === previousKey) return index <= 0 ? count - 1 : index - 1;
  if (key === nextKey) return (index + 1) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

/** Tabs: a click or the arrow keys choose a tab, and only its panel shows. */
function enhanceTabs(tabList: HTMLElement): void {
  const tabs = [...tabList.querySelectorAll<HTMLElement>('[role="tab"]')];
  const panelOf = (tab: HTMLElement) =>
    document.querySelector<HTMLElement>(`[role="tabpanel"][aria-labelledby="${tab.id}"]`);
  const select = (selected: HTMLElement) => {
    for (const tab of tabs) {
      const isSelected = tab === selected;
      tab.setAttribute('aria-selected', String(isSelected));
      tab.tabIndex = isSelected ? 0 : -1;
      tab.toggleAttribute('data-active', isSelected);
      const panel = panelOf(tab);
      if (panel) panel.style.display = isSelected ? '' : 'none';
    }
  };
  for (const tab of tabs) {
    // React sets this only once the panels have mounted in the browser, which here is now.
    const panelId = panelOf(tab)?.id;
    if (panelId) tab.setAttribute('aria-controls', panelId);
    tab.addEventListener('click', () => select(tab));
  }
  tabList.addEventListener('keydown', (event) => {
    const index = tabs.findIndex((tab) => tab.matches(':focus'));
    // The tabs run the way the page reads: right to left in Arabic, as Mantine's do.
    const isRtl = document.documentElement.dir === 'rtl';
    const next = movedIndex(
      event.key,
      index,
      tabs.length,
      isRtl ? ['ArrowRight', 'ArrowLeft'] : ['ArrowLeft', 'ArrowRight'],
    );
    const tab = next === null || index < 0 ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    select(tab);
    tab.focus();
  });
}

/** A menu button: opens its menu below, right-aligned; arrows move, Escape and Tab close. */
function enhanceMenuButton(button: HTMLElement): void {
  const menu = document.querySelector<HTMLElement>(`[role="menu"][aria-labelledby="${button.id}"]`);
  if (menu) enhanceMenu(button, menu);
}

function enhanceMenu(button: HTMLElement, menu: HTMLElement): void {
  const items = [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  const isOpen = () => button.getAttribute('aria-expanded') === 'true';

  const closeOnOutsidePointer = (event: PointerEvent) => {
    const target = event.target;
    if (target instanceof Node && !menu.contains(target) && !button.contains(target)) close();
  };
  function open(focusIndex: number) {
    menu.style.display = '';
    const buttonBox = button.getBoundingClientRect();
    const parentBox = (menu.offsetParent ?? document.body).getBoundingClientRect();
    menu.style.top = `${buttonBox.bottom - parentBox.top + menuOffsetPx}px`;
    menu.style.left = `${buttonBox.right - parentBox.left - menu.offsetWidth}px`;
    button.setAttribute('aria-expanded', 'true');
    button.setAttribute('aria-controls', menu.id);
    items[focusIndex]?.focus();
    document.addEventListener('pointerdown', closeOnOutsidePointer);
  }
  function close() {
    menu.style.display = 'none';
    button.setAttribute('aria-expanded', 'false');
    button.removeAttribute('aria-controls');
    document.removeEventListener('pointerdown', closeOnOutsidePointer);
  }

  button.addEventListener('click', () => (isOpen() ? close() : open(0)));
  // An item may lead to a part of this same page (/#products): the menu closes either way.
  for (const item of items) item.addEventListener('click', close);
  button.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    open(event.key === 'ArrowDown' ? 0 : items.length - 1);
  });
  menu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      close();
      button.focus();
      return;
    }
    if (event.key === 'Tab') {
      close();
      return;
    }
    const index = items.findIndex((item) => item.matches(':focus'));
    const next = movedIndex(event.key, index, items.length, ['ArrowUp', 'ArrowDown']);
    if (next === null) return;
    event.preventDefault();
    items[next]?.focus();
  });
}

/** Wires up every tab list and menu button of the page. */
export function enhanceStaticLandingPage(): void {
  for (const tabList of document.querySelectorAll<HTMLElement>('[role="tablist"]')) {
    enhanceTabs(tabList);
  }
  for (const button of document.querySelectorAll<HTMLElement>('[aria-haspopup="menu"]')) {
    enhanceMenuButton(button);
  }
}
