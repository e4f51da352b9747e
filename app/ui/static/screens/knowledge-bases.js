// Knowledge bases: the list with counts and model, create, edit, delete with confirmation.

import { attempt, del, get, kbPath, patch, post, session } from "../api.js";
import { clear, confirmButton, field, h, table } from "../dom.js";

function modelOf(kb) {
  const e = kb.embedding || {};
  if (e.provider === "none") return "none (text only)";
  return [e.provider, e.model, e.dimensions ? `${e.dimensions}d` : null].filter(Boolean).join(" · ");
}

function parseJsonField(text, name) {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${name} is not valid JSON: ${error.message}`);
  }
}

function createForm(onCreated) {
  const name = h("input", { name: "name", required: true, pattern: "[a-z0-9][a-z0-9_\\-]*", maxlength: 64, autocomplete: "off" });
  const title = h("input", { name: "title", maxlength: 200 });
  const description = h("textarea", { name: "description", rows: 2 });
  const provider = h(
    "select",
    { name: "provider" },
    h("option", { value: "local" }, "local (built-in, offline)"),
    h("option", { value: "openai" }, "openai-compatible"),
    h("option", { value: "none" }, "none (text search only)"),
  );
  const model = h("input", { name: "model", placeholder: "default" });
  const chunking = h("textarea", { name: "chunking", rows: 2, placeholder: '{"max_tokens": 256}' });
  const graph = h("input", { type: "checkbox", name: "graph" });
  const slot = h("div", {});
  const form = h(
    "form",
    { class: "card", id: "create-kb" },
    h("h2", {}, "New knowledge base"),
    h(
      "div",
      { class: "grid" },
      field("Name", name, "Lower-case letters, digits, - and _."),
      field("Title", title),
      field("Embedding provider", provider),
      field("Embedding model", model, "Empty: the provider's default."),
    ),
    field("Description", description),
    field("Chunking (JSON)", chunking, "Optional; the server checks it."),
    h("p", { class: "checks" }, h("label", {}, graph, "Knowledge graph and enrichment (entities, relations, node summaries)")),
    slot,
    h("button", { type: "submit", class: "primary" }, "Create"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const created = await attempt(slot, () => {
      const body = { name: name.value.trim(), description: description.value };
      if (title.value.trim()) body.title = title.value.trim();
      body.embedding = { provider: provider.value };
      if (model.value.trim()) body.embedding.model = model.value.trim();
      const chunks = parseJsonField(chunking.value, "Chunking");
      if (chunks !== undefined) body.chunking = chunks;
      if (graph.checked) {
        body.graph = { enabled: true };
        body.enrichment = { summaries: true, keywords: true, entities: true };
      }
      return post("/v1/knowledge-bases", body);
    });
    if (created) {
      form.reset();
      onCreated(created);
    }
  });
  return form;
}

function editRow(kb, onSaved, onCancel) {
  const title = h("input", { value: kb.title || "", "aria-label": `Title of ${kb.name}` });
  const description = h("input", { value: kb.description || "", "aria-label": `Description of ${kb.name}` });
  const slot = h("div", {});
  const save = h("button", { type: "button", class: "primary" }, "Save");
  save.addEventListener("click", async () => {
    const saved = await attempt(slot, () => patch(kbPath(kb.id), { title: title.value, description: description.value }));
    if (saved) onSaved();
  });
  return h(
    "tr",
    {},
    h("td", {}, kb.name),
    h("td", { colspan: 2 }, title, " ", description, slot),
    h("td", { colspan: 4 }, save, " ", h("button", { type: "button", onclick: onCancel }, "Cancel")),
  );
}

export async function render(main) {
  const listSlot = h("div", {});
  const errors = h("div", {});
  main.append(h("h1", {}, "Knowledge bases"), errors, listSlot);

  async function load() {
    const items = [];
    let cursor;
    do {
      const page = await get("/v1/knowledge-bases", { limit: 200, cursor });
      items.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor && items.length < 1000);
    const rows = items.map(function row(kb) {
      const actions = h("td", { class: "actions" });
      const tr = h(
        "tr",
        { "data-name": kb.name },
        h("td", {}, h("a", { href: `#/kb/${encodeURIComponent(kb.name)}` }, kb.name)),
        h("td", {}, kb.title || ""),
        h("td", {}, kb.description || ""),
        h("td", { class: "num" }, kb.document_count),
        h("td", { class: "num" }, kb.chunk_count),
        h("td", {}, modelOf(kb)),
        actions,
      );
      actions.append(h("a", { href: `#/kb/${encodeURIComponent(kb.name)}/search` }, "Search"));
      if (session.canWrite) {
        const edit = h("button", { type: "button" }, "Edit");
        edit.addEventListener("click", () => tr.replaceWith(editRow(kb, refresh, () => refresh())));
        actions.append(
          " ",
          edit,
          " ",
          confirmButton("Delete", `Delete ${kb.name} and its ${kb.document_count} documents?`, async () => {
            await attempt(errors, () => del(kbPath(kb.id)));
            await refresh();
          }),
        );
      }
      return tr;
    });
    clear(listSlot).append(
      items.length
        ? table("Knowledge bases", ["Name", "Title", "Description", "Documents", "Chunks", "Model", "Actions"], rows)
        : h("p", { class: "muted" }, "No knowledge bases yet."),
    );
  }

  async function refresh() {
    await attempt(errors, load);
  }

  if (session.canCreateKb) main.append(createForm(refresh));
  await refresh();
  return null;
}

