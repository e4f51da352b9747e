// The heading and tabs shared by a knowledge base's screens. The Graph tab appears once the
// knowledge base is known to have its graph on (one read of it, after the tabs are drawn).

import { get, kbPath, session } from "../api.js";
import { h } from "../dom.js";

export function kbHeader(kb, current) {
  const base = `#/kb/${encodeURIComponent(kb)}`;
  const tabs = [["documents", "Documents", base], ["search", "Search", `${base}/search`]];
  if (session.answers) tabs.push(["answer", "Ask", `${base}/answer`]);
  tabs.push(["sources", "Sources", `${base}/sources`]);
  const tab = ([name, text, href]) => h("li", {}, h("a", { href, "aria-current": name === current ? "page" : null }, text));
  const list = h("ul", {}, tabs.map(tab));
  const graphTab = tab(["graph", "Graph", `${base}/graph`]);
  if (current === "graph") {
    list.append(graphTab);
  } else {
    // The screen itself shows the knowledge base's errors (a 404, a lost key); a failed read
    // here only leaves the tab out.
    get(kbPath(kb))
      .then((info) => {
        if (info?.graph?.enabled) list.append(graphTab);
      })
      .catch(() => undefined);
  }
  return h(
    "div",
    { class: "kb-header" },
    h("p", { class: "crumbs" }, h("a", { href: "#/" }, "Knowledge bases"), " / "),
    h("h1", {}, kb),
    h("nav", { class: "tabs", "aria-label": "Knowledge base" }, list),
  );
}
