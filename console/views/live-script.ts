/**
 * Served as /static/live.js (a same-origin script, so the page's CSP can forbid inline
 * scripts): polls the page's `data-live` URL and reloads when its `version` differs from the one
 * the page was rendered with, so a
 * decision made elsewhere (CLI, auto-expiry, another approver) shows without a manual reload.
 */
export const LIVE_SCRIPT = `(() => {
  const url = document.body.dataset.live;
  const rendered = document.body.dataset.liveVersion;
  if (!url) return;
  // A form post or a link on its way owns the next page: a reload now would cut it short
  // (the person would see this page again, or the revision change without the answer to what
  // they did). beforeunload comes when any navigation starts; a page restored from the
  // back/forward cache polls again.
  let leaving = false;
  addEventListener('submit', (e) => { if (!e.defaultPrevented) leaving = true; });
  addEventListener('beforeunload', () => { leaving = true; });
  addEventListener('pageshow', (e) => { if (e.persisted && leaving) { leaving = false; poll(); } });
  async function poll() {
    if (leaving) return;
    try {
      const r = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (r.ok) {
        const { version } = await r.json();
        if (version !== rendered && !leaving) { location.reload(); return; }
      }
    } catch (e) {}
    setTimeout(poll, 3000);
  }
  poll();
})();
`;
