"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.diffView = diffView;
const html_1 = require("hono/html");
/** A unified diff as lines coloured by kind (every line escaped). */
function diffView(diff) {
    if (!diff)
        return (0, html_1.html) `<p class="muted">No change to SKILL.md.</p>`;
    const lines = diff.replace(/\n$/, '').split('\n').map((line) => {
        const kind = line.startsWith('@@') ? 'hunk' : line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'remove' : 'equal';
        return (0, html_1.html) `<span class="${kind}">${line}</span>\n`;
    });
    return (0, html_1.html) `<pre class="diff" data-testid="diff">${lines}</pre>`;
}
//# sourceMappingURL=diff.js.map