/**
 * The web page that stands for `bench/_tasks_app.ts` when Playwright MCP reads it: the same
 * controls with the same names (Name and Email fields, a Notifications checkbox, Prepare and
 * a disabled Download, the "Nothing opened" text, and a scrolling "Rows" region with a list
 * whose rows each hold a "Done" checkbox, the row's text and an "Open" button), and the same
 * behaviour. Written as lean as the controls allow (names by `aria-label`, no wrapping
 * elements), so the peer's snapshot is as small as such a page makes it. Served on 127.0.0.1.
 *
 * @module
 */

/** The page with `rows` rows. */
export function tasksPage(rows: number): string {
  const items: string[] = [];
  for (let index = 0; index < rows; index++) {
    items.push(
      `<li><input type="checkbox" aria-label="Done"> Row ${index} <button>Open</button></li>`,
    );
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tasks ${rows}</title></head><body>
<input aria-label="Name" value="Ada" size="24">
<input aria-label="Email" value="ada@example.org" size="24">
<input type="checkbox" aria-label="Notifications" checked>
<button id="prepare">Prepare</button> <button id="download" disabled>Download</button>
<p id="opened">Nothing opened</p>
<div role="region" aria-label="Rows" style="height:20em;overflow:auto"><ul id="rows">
${items.join("\n")}
</ul></div>
<script>
let timer;
document.getElementById("prepare").onclick = () => {
  const download = document.getElementById("download");
  download.disabled = true;
  clearTimeout(timer);
  timer = setTimeout(() => { download.disabled = false; }, 3000);
};
document.getElementById("rows").onclick = (event) => {
  if (event.target.tagName !== "BUTTON") return;
  const row = event.target.parentElement.textContent.trim().replace(/ Open$/, "");
  document.getElementById("opened").textContent = "Opened " + row;
};
</script>
</body></html>
`;
}

/** Serves `html` on 127.0.0.1 at a free port until `close()`. */
export function servePage(html: string): { url: string; close(): Promise<void> } {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }),
  );
  return { url: `http://127.0.0.1:${server.addr.port}/`, close: () => server.shutdown() };
}
