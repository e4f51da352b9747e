// The events feed, followed live by long polling (GET /v1/events?after=&wait=).

import { get, problemBox } from "../api.js";
import { clear, field, formatTime, h } from "../dom.js";

const TYPES = ["knowledge_base.created", "knowledge_base.updated", "knowledge_base.deleted", "document.ready", "document.failed", "document.updated", "document.deleted"];
const WAIT_S = 25;
const SHOWN = 200;

export async function render(main) {
  const type = h("select", { name: "type" }, h("option", { value: "" }, "all"), TYPES.map((t) => h("option", { value: t }, t)));
  const state = h("p", { class: "muted", "aria-live": "polite" }, "Following…");
  const errors = h("div", {});
  const list = h("ol", { class: "events", reversed: true });
  main.append(h("h1", {}, "Events"), h("div", { class: "filters" }, field("Type", type)), state, errors, list);
  let controller = new AbortController();
  let running = true;

  function item(event) {
    const d = event.data || {};
    const what = d.title || d.name || d.external_id || event.subject_id;
    return h(
      "li",
      { class: `event event-${event.type.replace(".", "-")}` },
      h("span", { class: "event-type" }, event.type),
      " ",
      h("span", {}, what),
      d.error ? h("span", { class: "error-text" }, ` ${d.error}`) : null,
      " ",
      h("time", { datetime: event.created_at, class: "muted" }, formatTime(event.created_at)),
    );
  }

  async function follow() {
    let cursor;
    let wait = 0; // the kept history first, then wait for what follows
    while (running) {
      try {
        const page = await get("/v1/events", { after: cursor, wait, type: type.value, limit: 200 }, { signal: controller.signal });
        errors.replaceChildren();
        for (const event of page.items) list.prepend(item(event));
        while (list.childElementCount > SHOWN) list.lastElementChild.remove();
        cursor = page.next_cursor;
        wait = page.items.length ? 0 : WAIT_S;
        state.textContent = `Following · ${list.childElementCount} shown`;
      } catch (error) {
        if (error.name === "AbortError") {
          if (!running) return;
          controller = new AbortController();
          continue;
        }
        errors.replaceChildren(problemBox(error));
        await new Promise((ok) => setTimeout(ok, 5000));
      }
    }
  }

  type.addEventListener("change", () => {
    clear(list);
    running = false;
    controller.abort();
    setTimeout(() => {
      running = true;
      controller = new AbortController();
      follow();
    }, 0);
  });
  follow();
  return () => {
    running = false;
    controller.abort();
  };
}
