// A knowledge base's graph: its status (settings, jobs, counts), the entities by name or type,
// an entity's relations and provenance (the passages that mention it), and graph search with
// its nodes and edges drawn as a diagram. Everything comes through the caller's rights: what
// only unreadable documents say is never listed by the API, so it is never drawn here.

import { attempt, get, kbPath, patch, post, session } from "../api.js";
import { diagram, LEGEND } from "../diagram.js";
import { clear, field, h, table } from "../dom.js";
import { kbHeader } from "./kb-header.js";

const STATUS_POLL_MS = 2000;
const ACTIVE_JOBS = ["queued", "running"];

function legend() {
  return h(
    "ul",
    { class: "legend", "aria-label": "Node colours" },
    LEGEND.map(([kind, text]) => h("li", {}, h("span", { class: `swatch swatch-${kind}`, "aria-hidden": "true" }), text)),
  );
}

function docLink(kb, mention, text) {
  return h("a", { href: `#/kb/${encodeURIComponent(kb)}/doc/${mention.document_id}?chunk=${mention.chunk_id}` }, text);
}

export async function render(main, { kb }) {
  let stopped = false;
  let statusTimer = null;
  main.append(kbHeader(kb, "graph"));
  const errors = h("div", {});
  const statusSlot = h("section", { class: "card", id: "graph-status", "aria-label": "Graph status" });
  main.append(errors, statusSlot);

  async function loadStatus() {
    const status = await get(kbPath(kb, "/graph/status"));
    const jobs = Object.entries(status.jobs || {}).filter(([, n]) => n > 0).map(([name, n]) => `${n} ${name}`).join(", ") || "none";
    clear(statusSlot).append(
      h(
        "dl",
        { class: "facts" },
        h("dt", {}, "Graph"),
        h("dd", { "data-enabled": String(status.graph.enabled) }, status.graph.enabled ? `on · extractor ${status.graph.extractor}` : "off"),
        h("dt", {}, "Enrichment"),
        h("dd", {}, Object.entries(status.enrichment).filter(([, on]) => on).map(([name]) => name).join(", ") || "off"),
        h("dt", {}, "Entities"),
        h("dd", { id: "graph-entities-count" }, status.entities),
        h("dt", {}, "Relations"),
        h("dd", {}, status.relations),
        h("dt", {}, "Graph jobs"),
        h("dd", {}, jobs),
      ),
    );
    if (!status.graph.enabled) {
      statusSlot.append(h("p", {}, "The graph is off for this knowledge base: documents feed no entities or relations."));
      if (session.canWrite) {
        const on = h("button", { type: "button", class: "primary" }, "Turn on the graph and enrichment");
        on.addEventListener("click", async () => {
          const body = { graph: { enabled: true }, enrichment: { summaries: true, keywords: true, entities: true } };
          if (await attempt(errors, () => patch(kbPath(kb), body))) await attempt(errors, loadStatus);
        });
        statusSlot.append(on);
      }
    }
    // Documents still being extracted: the counts grow, so look again shortly.
    const busy = ACTIVE_JOBS.some((name) => (status.jobs || {})[name] > 0);
    if (busy && !stopped) {
      statusTimer = setTimeout(() => attempt(errors, loadStatus), STATUS_POLL_MS);
    }
  }

  // Entities: by part of the name and by type, cursor pages; one opens beside the list.
  const q = h("input", { type: "search", name: "entity-q", autocomplete: "off" });
  const type = h("input", { name: "entity-type", placeholder: "PERSON", autocomplete: "off", maxlength: 40 });
  const entityForm = h("form", { class: "filters", id: "entity-form", "aria-label": "Find entities" }, field("Name contains", q), field("Type", type), h("button", { type: "submit" }, "Find"));
  const entityList = h("ul", { class: "entity-list", id: "entity-list" });
  const more = h("div", {});
  const detail = h("section", { class: "detail entity-detail", id: "entity-detail", "aria-live": "polite" });
  const detailErrors = h("div", {});
  main.append(
    h(
      "div",
      { class: "graph-view" },
      h("section", { class: "card", "aria-labelledby": "entities-title" }, h("h2", { id: "entities-title" }, "Entities"), entityForm, entityList, more),
      h("div", {}, detailErrors, detail),
    ),
  );

  async function openEntity(id) {
    const entity = await attempt(detailErrors, () => get(kbPath(kb, `/graph/entities/${id}`)));
    if (!entity) return;
    const nodes = new Map([[entity.id, { id: entity.id, name: entity.name, type: entity.type, summary: entity.summary }]]);
    for (const relation of entity.relations) {
      for (const [nodeId, name] of [[relation.source_id, relation.source_name], [relation.target_id, relation.target_name]]) {
        if (!nodes.has(nodeId)) nodes.set(nodeId, { id: nodeId, name, type: "related" });
      }
    }
    const relationRows = entity.relations.map((relation) =>
      h("tr", {}, h("td", {}, relation.source_name), h("td", {}, h("code", {}, relation.type)), h("td", {}, relation.target_name), h("td", {}, relation.fact)),
    );
    clear(detail).append(
      h("h3", {}, entity.name, " ", h("span", { class: "muted" }, entity.type)),
      entity.summary ? h("p", {}, entity.summary) : null,
      entity.relations.length
        ? diagram({
            nodes: [...nodes.values()],
            edges: entity.relations,
            centre: entity.id,
            label: `Relations of ${entity.name}`,
            onSelect: (node) => (node.id === entity.id ? null : openEntity(node.id)),
          })
        : h("p", { class: "muted" }, "No relations you may read."),
      entity.relations.length ? table(`Relations (${entity.relations.length})`, ["Source", "Type", "Target", "Fact"], relationRows) : null,
      h("h4", {}, `Mentioned in (${entity.mentions.length})`),
      h(
        "ul",
        { class: "mentions" },
        entity.mentions.map((mention) =>
          h("li", {}, docLink(kb, mention, `“${mention.surface}”`), " ", h("span", { class: "muted" }, mention.description)),
        ),
      ),
    );
  }

  let cursor = null;
  async function loadEntities(reset) {
    const page = await get(kbPath(kb, "/graph/entities"), { q: q.value.trim(), type: type.value.trim(), limit: 50, cursor: reset ? null : cursor });
    if (reset) clear(entityList);
    for (const entity of page.items) {
      const open = h("button", { type: "button", class: "entity", "data-id": entity.id }, entity.name, " ", h("span", { class: "muted" }, entity.type));
      open.addEventListener("click", () => openEntity(entity.id));
      entityList.append(h("li", {}, open));
    }
    if (reset && !page.items.length) entityList.append(h("li", { class: "muted" }, "No entities."));
    cursor = page.next_cursor;
    clear(more);
    if (cursor) more.append(h("button", { type: "button", onclick: () => attempt(errors, () => loadEntities(false)) }, "More"));
  }
  entityForm.addEventListener("submit", (event) => {
    event.preventDefault();
    attempt(errors, () => loadEntities(true));
  });

  // Graph search: the nodes and edges it found drawn, then its facts and steps as text.
  const query = h("input", { type: "search", name: "graph-q", autocomplete: "off", required: true });
  const mode = h("select", { name: "graph-mode" }, h("option", { value: "standard" }, "standard"), h("option", { value: "quick" }, "quick"));
  const searchForm = h(
    "form",
    { class: "card", id: "graph-search" },
    h("h2", {}, "Graph search"),
    h("div", { class: "search-line" }, field("Question or names", query), field("Mode", mode), h("button", { type: "submit", class: "primary" }, "Search the graph")),
  );
  const searchErrors = h("div", {});
  const result = h("section", { id: "graph-result", "aria-live": "polite" });
  main.append(searchForm, searchErrors, result);
  searchForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(result);
    const found = await attempt(searchErrors, () => post(kbPath(kb, "/graph/search"), { query: query.value, mode: mode.value }));
    if (!found) return;
    const names = new Map(found.nodes.map((node) => [node.id, node.name]));
    result.append(
      h("p", { class: "muted" }, `${found.nodes.length} nodes, ${found.edges.length} edges`, found.entities.length ? ` · query entities: ${found.entities.join(", ")}` : ""),
      found.nodes.length
        ? h("div", { class: "card" }, diagram({ nodes: found.nodes, edges: found.edges, label: `Graph of “${query.value}”`, onSelect: (node) => openEntity(node.id) }), legend())
        : h("p", {}, "Nothing in the graph matches."),
      found.edges.length
        ? table(
            "Edges",
            ["Source", "Type", "Target", "Fact", "Score"],
            found.edges.map((edge) =>
              h("tr", {}, h("td", {}, names.get(edge.source_id) || ""), h("td", {}, h("code", {}, edge.type)), h("td", {}, names.get(edge.target_id) || ""), h("td", {}, edge.fact), h("td", { class: "num" }, edge.score.toFixed(2))),
            ),
          )
        : null,
      h("details", {}, h("summary", {}, "Steps"), h("ol", { class: "timeline" }, found.actions.map((action) => h("li", { class: action.degraded ? "warning" : "" }, JSON.stringify(action))))),
    );
  });

  await attempt(errors, loadStatus);
  await attempt(errors, () => loadEntities(true));
  return () => {
    stopped = true;
    clearTimeout(statusTimer);
  };
}
