// The heading and tabs shared by a knowledge base's screens.

import { session } from "../api.js";
import { h } from "../dom.js";

export function kbHeader(kb, current) {
  const base = `#/kb/${encodeURIComponent(kb)}`;
  const tabs = [["documents", "Documents", base], ["search", "Search", `${base}/search`]];
  if (session.answers) tabs.push(["answer", "Ask", `${base}/answer`]);
  return h(
    "div",
    { class: "kb-header" },
    h("p", { class: "crumbs" }, h("a", { href: "#/" }, "Knowledge bases"), " / "),
    h("h1", {}, kb),
    h(
      "nav",
      { class: "tabs", "aria-label": "Knowledge base" },
      h(
        "ul",
        {},
        tabs.map(([name, text, href]) =>
          h("li", {}, h("a", { href, "aria-current": name === current ? "page" : null }, text)),
        ),
      ),
    ),
  );
}
