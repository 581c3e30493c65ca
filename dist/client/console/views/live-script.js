"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LIVE_SCRIPT = void 0;
/**
 * Served as /static/live.js (a same-origin script, so the page's CSP can forbid inline
 * scripts): polls the page's `data-live` URL and reloads when its `version` differs from the one
 * the page was rendered with, so a
 * decision made elsewhere (CLI, auto-expiry, another approver) shows without a manual reload.
 */
exports.LIVE_SCRIPT = `(() => {
  const url = document.body.dataset.live;
  const rendered = document.body.dataset.liveVersion;
  if (!url) return;
  async function poll() {
    try {
      const r = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (r.ok) {
        const { version } = await r.json();
        if (version !== rendered) { location.reload(); return; }
      }
    } catch (e) {}
    setTimeout(poll, 3000);
  }
  poll();
})();
`;
//# sourceMappingURL=live-script.js.map