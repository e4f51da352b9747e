// The search playground: query, mode, filter (JSON, checked by the API), top_k, weights,
// rerank and MMR; hits with highlights, scores, the explain block as bars, and a hit's tree
// context on demand.

import { attempt, kbPath, post } from "../api.js";
import { clear, field, h, marked } from "../dom.js";
import { kbHeader } from "./kb-header.js";

// Bars of the explain block: each a value in [0, 1] (rerank scores are squashed into it).
const BARS = [
  ["vector", (e) => e.vector_normalized ?? e.vector_similarity],
  ["text", (e) => e.text_normalized ?? (e.text_score == null ? null : Math.min(1, e.text_score))],
  ["rerank", (e) => (e.rerank_score == null ? null : 1 / (1 + Math.exp(-e.rerank_score)))],
];

function explainBars(explain) {
  if (!explain) return null;
  const rows = [];
  for (const [name, pick] of BARS) {
    const value = pick(explain);
    if (value == null || Number.isNaN(value)) continue;
    const clamped = Math.max(0, Math.min(1, value));
    rows.push(
      h(
        "div",
        { class: "bar-row" },
        h("span", { class: "bar-label" }, name),
        h("meter", { min: 0, max: 1, value: clamped, "aria-label": `${name} score`, title: value.toFixed(3) }),
        h("span", { class: "bar-value" }, value.toFixed(3)),
      ),
    );
  }
  const ranks = [
    explain.vector_rank ? `vector #${explain.vector_rank}` : null,
    explain.text_rank ? `text #${explain.text_rank}` : null,
    explain.text_match ? `(${explain.text_match})` : null,
    explain.mmr_rank ? `MMR #${explain.mmr_rank}` : null,
  ].filter(Boolean);
  return h("div", { class: "explain" }, rows, ranks.length ? h("div", { class: "muted" }, ranks.join(" · ")) : null);
}

function contextView(context) {
  const parts = [];
  if (context.ancestors?.length) {
    parts.push(h("p", { class: "crumbs" }, context.ancestors.map((a) => a.title || a.kind).filter(Boolean).join(" › ")));
  }
  if (context.parent) {
    parts.push(
      h("h4", {}, `Around it: ${context.parent.title || context.parent.kind || "section"}`),
      context.parent.summary ? h("p", { class: "summary" }, context.parent.summary) : null,
      h("blockquote", { class: "context-text" }, context.parent.text || "", context.parent.truncated ? "…" : ""),
    );
  }
  for (const [label, neighbour] of [["Previous chunk", context.previous], ["Next chunk", context.next]]) {
    if (neighbour) parts.push(h("h4", {}, label), h("blockquote", { class: "context-text" }, neighbour.text));
  }
  return h("div", { class: "hit-context" }, parts.length ? parts : h("p", { class: "muted" }, "No context."));
}

export async function render(main, { kb }) {
  main.append(kbHeader(kb, "search"));
  const query = h("input", { type: "search", name: "q", placeholder: "What are you looking for?", autocomplete: "off" });
  const mode = h("select", { name: "mode" }, ["hybrid", "vector", "text"].map((m) => h("option", { value: m }, m)));
  const topK = h("input", { type: "number", name: "top_k", min: 1, max: 200, value: "10" });
  const weight = h("input", { type: "range", name: "vector_weight", min: 0, max: 1, step: 0.05, value: "0.5" });
  const weightOut = h("output", { "aria-hidden": "true" }, "0.5");
  weight.addEventListener("input", () => {
    weightOut.textContent = weight.value;
  });
  const rerank = h("input", { type: "checkbox", name: "rerank" });
  const mmr = h("input", { type: "checkbox", name: "mmr" });
  const lambda = h("input", { type: "number", name: "mmr_lambda", min: 0, max: 1, step: 0.1, value: "0.5" });
  const filter = h("textarea", { name: "filter", rows: 3, placeholder: '{"metadata.team": "support"}', spellcheck: "false" });
  const errors = h("div", {});
  const results = h("div", { class: "results", "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card", id: "search-form", role: "search" },
    h("div", { class: "search-line" }, field("Query", query), h("button", { type: "submit", class: "primary" }, "Search")),
    h(
      "div",
      { class: "grid" },
      field("Mode", mode),
      field("Top k", topK),
      h("div", { class: "field" }, h("label", { for: "vw" }, "Vector weight "), weightOut, weight),
      h("div", { class: "field checks" }, h("label", {}, rerank, " Rerank"), h("label", {}, mmr, " MMR, λ "), lambda),
    ),
    field("Filter (JSON)", filter, "Search's filter language; the server says what is wrong with it."),
  );
  weight.id = "vw";
  lambda.setAttribute("aria-label", "MMR lambda");
  main.append(form, errors, results);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      query: query.value,
      mode: mode.value,
      top_k: Number(topK.value) || 10,
      vector_weight: Number(weight.value),
      rerank: rerank.checked,
      include: ["explain"],
    };
    if (mmr.checked) body.mmr = { lambda: Number(lambda.value) };
    if (filter.value.trim()) {
      try {
        body.filter = JSON.parse(filter.value);
      } catch (error) {
        errors.replaceChildren(h("div", { class: "problem", role: "alert" }, h("strong", {}, "The filter is not JSON"), h("p", {}, error.message)));
        return;
      }
    }
    clear(results);
    const found = await attempt(errors, () => post(kbPath(kb, "/search"), body));
    if (!found) return;
    const meta = [`${found.hits.length} hits`, `mode ${found.mode}`];
    if (found.reranked) meta.push("reranked");
    if (found.degraded) meta.push(`degraded: ${found.degraded}`);
    results.append(h("p", { class: "muted", id: "hit-count" }, meta.join(" · ")));
    for (const warning of found.warnings || []) results.append(h("p", { class: "warning" }, typeof warning === "string" ? warning : JSON.stringify(warning)));
    results.append(h("ol", { class: "hits" }, found.hits.map((hit) => hitItem(kb, hit))));
  });
  query.focus();
  return null;
}

function hitItem(kb, hit) {
  const text = hit.highlights?.length
    ? h("p", { class: "hit-text" }, hit.highlights.map((fragment, i) => [i ? " … " : "", marked(fragment)]))
    : h("p", { class: "hit-text" }, hit.text.length > 400 ? `${hit.text.slice(0, 400)}…` : hit.text);
  const contextSlot = h("div", {});
  const contextButton = h("button", { type: "button", class: "context-button", "aria-expanded": "false" }, "Context");
  contextButton.addEventListener("click", async () => {
    if (contextButton.getAttribute("aria-expanded") === "true") {
      contextButton.setAttribute("aria-expanded", "false");
      clear(contextSlot);
      return;
    }
    const found = await attempt(contextSlot, () => post(kbPath(kb, "/chunks/context"), { chunk_ids: [hit.chunk_id] }));
    if (found?.items?.length) {
      contextButton.setAttribute("aria-expanded", "true");
      contextSlot.append(contextView(found.items[0].context));
    }
  });
  const where = [
    hit.section_titles?.length ? hit.section_titles.join(" › ") : null,
    hit.page_start != null ? `p. ${hit.page_start}` : null,
  ].filter(Boolean);
  return h(
    "li",
    { class: "hit" },
    h(
      "div",
      { class: "hit-head" },
      h("a", { href: `#/kb/${encodeURIComponent(kb)}/doc/${hit.doc_id}?chunk=${hit.chunk_id}` }, hit.doc_title || hit.doc_id),
      h("span", { class: "score" }, `score ${hit.score.toFixed(3)}`),
    ),
    where.length ? h("div", { class: "muted" }, where.join(" · ")) : null,
    text,
    explainBars(hit.explain),
    contextButton,
    contextSlot,
  );
}
