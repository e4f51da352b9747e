// A document: its tree beside its extracted text, each chunk's span marked on the text; a
// click on a node or a chunk shows its range, lineage, metadata and enrichment.

import { attempt, get, kbPath } from "../api.js";
import { append, clear, formatBytes, h } from "../dom.js";
import { kbHeader } from "./kb-header.js";

const MAX_CHUNKS = 2000;

function nodeLabel(node) {
  if (node.kind === "document") return node.title || "Document";
  if (node.kind === "section") return node.title || "Section";
  const text = (node.text || "").replace(/\s+/g, " ").trim();
  return text.length > 60 ? `${text.slice(0, 60)}…` : text || node.kind;
}

function describe(pairs) {
  return h(
    "dl",
    { class: "facts" },
    pairs.filter(([, value]) => value !== undefined && value !== null && value !== "").map(([term, value]) => [h("dt", {}, term), h("dd", {}, value)]),
  );
}

function pages(item) {
  if (item.page_start == null) return null;
  return item.page_end && item.page_end !== item.page_start ? `${item.page_start}–${item.page_end}` : String(item.page_start);
}

function json(value) {
  return h("pre", { class: "json" }, JSON.stringify(value, null, 2));
}

export async function render(main, { kb, doc, chunk: wantedChunk }) {
  main.append(kbHeader(kb, "documents"));
  const errors = h("div", {});
  main.append(errors);
  const loaded = await attempt(errors, async () => {
    const documentRead = await get(kbPath(kb, `/documents/${encodeURIComponent(doc)}`));
    const tree = await get(kbPath(kb, `/documents/${documentRead.id}/tree`));
    const chunks = [];
    let cursor;
    do {
      const page = await get(kbPath(kb, `/documents/${documentRead.id}/chunks`), { limit: 200, cursor });
      chunks.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor && chunks.length < MAX_CHUNKS);
    return { documentRead, tree, chunks };
  });
  if (!loaded) return null;
  const { documentRead, tree, chunks } = loaded;

  append(main, [
    h("h2", { id: "doc-title" }, documentRead.title),
    describe([
      ["Status", documentRead.status],
      ["Format", documentRead.format],
      ["Size", formatBytes(documentRead.size_bytes)],
      ["Chunks", String(documentRead.chunk_count)],
      ["Pages", tree.page_count == null ? null : String(tree.page_count)],
      ["Source", documentRead.source_uri],
      ["External id", documentRead.external_id],
    ]),
    Object.keys(documentRead.metadata || {}).length ? h("details", {}, h("summary", {}, "Metadata"), json(documentRead.metadata)) : null,
  ]);

  // The text as code points: offsets from the API count code points, not UTF-16 units.
  const codePoints = Array.from(tree.root.text || "");
  const textPane = h("div", { class: "doc-text", id: "doc-text", tabindex: "0", "aria-label": "Document text" });
  const detail = h("div", { class: "detail", id: "detail", "aria-live": "polite" });
  const spans = [];
  const nodes = new Map();

  // Segments between every chunk boundary; each segment belongs to the first chunk covering it.
  const ordered = chunks.filter((c) => c.start_offset != null && c.end_offset != null).sort((a, b) => a.start_offset - b.start_offset);
  const cuts = new Set([0, codePoints.length]);
  for (const c of ordered) {
    cuts.add(Math.min(c.start_offset, codePoints.length));
    cuts.add(Math.min(c.end_offset, codePoints.length));
  }
  const bounds = [...cuts].sort((a, b) => a - b);
  for (let i = 0; i < bounds.length - 1; i += 1) {
    const [start, end] = [bounds[i], bounds[i + 1]];
    if (start === end) continue;
    const owner = ordered.find((c) => c.start_offset <= start && c.end_offset >= end);
    const span = h("span", { class: owner ? `chunk chunk-${owner.chunk_index % 2 ? "odd" : "even"}` : "gap" }, codePoints.slice(start, end).join(""));
    span.dataset.start = start;
    span.dataset.end = end;
    if (owner) {
      span.dataset.chunk = owner.chunk_id;
      span.title = `Chunk ${owner.chunk_index}`;
      span.addEventListener("click", () => showChunk(owner));
    }
    spans.push(span);
    textPane.append(span);
  }

  function mark(start, end, className) {
    for (const span of spans) {
      const inside = Number(span.dataset.start) < end && Number(span.dataset.end) > start;
      span.classList.toggle(className, inside);
    }
    spans.find((s) => s.classList.contains(className))?.scrollIntoView({ block: "center" });
  }

  async function showChunk(c) {
    mark(c.start_offset ?? 0, c.end_offset ?? 0, "selected");
    clear(detail).append(
      h("h3", {}, `Chunk ${c.chunk_index}`),
      describe([
        ["Sections", (c.section_titles || []).join(" › ")],
        ["Characters", c.start_offset == null ? null : `${c.start_offset}–${c.end_offset}`],
        ["Pages", pages(c)],
        ["Embedded", c.embedded ? "yes" : "no"],
        ["Chunk id", c.chunk_id],
      ]),
    );
    if (Object.keys(c.metadata || {}).length) detail.append(h("h4", {}, "Metadata"), json(c.metadata));
    if (c.leaf_node_id) {
      const slot = h("div", {});
      detail.append(h("h4", {}, "Lineage"), slot);
      const ancestors = await attempt(slot, () => get(kbPath(kb, `/documents/${documentRead.id}/nodes/${encodeURIComponent(c.leaf_node_id)}/ancestors`)));
      if (ancestors) {
        const leaf = nodes.get(c.leaf_node_id);
        const steps = leaf ? [...ancestors, leaf] : ancestors;
        slot.append(h("ol", { class: "lineage" }, steps.map((a) => h("li", {}, `${a.kind}: ${a.title || nodeLabel(a)}`))));
      }
    }
  }

  function showNode(node) {
    mark(node.range.start_offset, node.range.end_offset, "selected");
    clear(detail).append(
      h("h3", {}, `${node.kind}${node.title ? `: ${node.title}` : ""}`),
      describe([
        ["Characters", `${node.range.start_offset}–${node.range.end_offset}`],
        ["Pages", pages(node)],
        ["Level", node.level == null ? null : String(node.level)],
        ["Node id", node.node_id],
      ]),
    );
    const e = node.enrichment;
    if (e) {
      detail.append(
        h("h4", {}, "Enrichment"),
        describe([
          ["Summary", e.summary],
          ["Keywords", (e.keywords || []).join(", ")],
          ["Entities", (e.entities || []).map((x) => (x.type ? `${x.text} (${x.type})` : x.text)).join(", ")],
        ]),
      );
    }
  }

  function treeList(node) {
    nodes.set(node.node_id, node);
    const button = h("button", { type: "button", class: `node node-${node.kind}` }, h("span", { class: "kind" }, node.kind), " ", nodeLabel(node));
    button.addEventListener("click", () => showNode(node));
    const children = node.children || [];
    return h("li", {}, button, children.length ? h("ul", {}, children.map(treeList)) : null);
  }

  main.append(
    h(
      "div",
      { class: "doc-view" },
      h("nav", { class: "tree", "aria-label": "Document tree" }, h("h3", {}, "Tree"), h("ul", {}, treeList(tree.root))),
      h(
        "section",
        { class: "text-col", "aria-label": "Text and chunks" },
        h("h3", {}, `Text · ${chunks.length} chunks`),
        // The marked spans take clicks; these buttons give the same to the keyboard.
        h("ol", { class: "chunk-list", "aria-label": "Chunks" }, ordered.map((c) => h("li", {}, h("button", { type: "button", "aria-label": `Chunk ${c.chunk_index}`, onclick: () => showChunk(c) }, String(c.chunk_index))))),
        textPane,
      ),
      detail,
    ),
  );
  const target = wantedChunk && chunks.find((c) => c.chunk_id === wantedChunk);
  if (target) await showChunk(target);
  return null;
}
