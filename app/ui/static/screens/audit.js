// The audit log (admin keys): who searched and wrote what, newest first.

import { attempt, get } from "../api.js";
import { append, clear, field, formatTime, h, table } from "../dom.js";

export async function render(main) {
  const operation = h("input", { name: "operation", placeholder: "search-knowledge_base", autocomplete: "off" });
  const form = h("form", { class: "filters" }, field("Operation", operation), h("button", { type: "submit" }, "Filter"));
  const errors = h("div", {});
  const listSlot = h("div", {});
  main.append(h("h1", {}, "Audit log"), form, errors, listSlot);
  let cursor = null;
  let rows = [];

  async function load(reset) {
    if (reset) {
      cursor = null;
      rows = [];
    }
    const page = await get("/v1/audit", { limit: 100, cursor, operation: operation.value.trim() });
    rows.push(
      ...page.items.map((e) =>
        h(
          "tr",
          {},
          h("td", {}, formatTime(e.created_at)),
          h("td", {}, e.actor),
          h("td", {}, e.operation),
          h("td", {}, `${e.method} ${e.path}`),
          h("td", { class: "num" }, e.status),
          h("td", { class: "num" }, e.hits ?? ""),
        ),
      ),
    );
    cursor = page.next_cursor;
    // append() (not the DOM method) leaves out the missing "More" button.
    append(clear(listSlot), [
      table("Audit events", ["When", "Actor", "Operation", "Request", "Status", "Hits"], rows),
      cursor ? h("button", { type: "button", onclick: () => attempt(errors, () => load(false)) }, "More") : null,
    ]);
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(errors, () => load(true));
  });
  await attempt(errors, () => load(true));
  return null;
}
