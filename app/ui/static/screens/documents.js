// A knowledge base's documents: uploads (drag and drop of files and folders, file pickers,
// pasted text) with each upload's stage and progress followed live, and the document list
// with filters, reindex and delete. A URL is fetched by the server.

import { ApiError, attempt, del, get, kbPath, post, problemBox, request, session } from "../api.js";
import { append, clear, confirmButton, field, formatBytes, formatTime, h, table } from "../dom.js";
import { kbHeader } from "./kb-header.js";

const POLL_MS = 700;
const LIST_POLL_MS = 2000;
const STATUSES = ["queued", "parsing", "chunking", "embedding", "ready", "failed"];
const DONE = new Set(["ready", "failed"]);

// Every file of a dropped folder, read through the entries API (recursively).
async function filesOf(entry) {
  if (entry.isFile) return [await new Promise((ok, fail) => entry.file(ok, fail))];
  const reader = entry.createReader();
  const files = [];
  for (;;) {
    const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
    if (!batch.length) break;
    for (const child of batch) files.push(...(await filesOf(child)));
  }
  return files;
}

function progressText(doc) {
  const p = doc.progress || {};
  const stage = p.stage || doc.status;
  if (stage === "embedding" && p.chunks_total) return `embedding ${p.chunks_embedded}/${p.chunks_total}`;
  if (p.retrying) return `${stage} (retrying, attempt ${p.attempts})`;
  return stage;
}

function progressValue(doc) {
  const order = { queued: 0.05, parsing: 0.2, chunking: 0.35, embedding: 0.5, ready: 1, failed: 1 };
  const p = doc.progress || {};
  const stage = p.stage || doc.status;
  if (stage === "embedding" && p.chunks_total) return 0.5 + 0.5 * (p.chunks_embedded / p.chunks_total);
  return order[stage] ?? 0;
}

export async function render(main, { kb }) {
  let stopped = false;
  const timers = new Set();
  const uploads = h("ul", { class: "uploads", "aria-live": "polite", "aria-label": "Uploads" });
  const listSlot = h("div", {});
  const listErrors = h("div", {});
  main.append(kbHeader(kb, "documents"));

  // One upload: a row that follows the document until it is ready or failed.
  function track(name, send) {
    const bar = h("progress", { max: 1, value: 0, "aria-label": `Progress of ${name}` });
    const stage = h("span", { class: "stage" }, "uploading");
    const detail = h("div", {});
    const item = h("li", { class: "upload", "data-status": "uploading" }, h("span", { class: "upload-name" }, name), bar, stage, detail);
    uploads.prepend(item);

    function show(doc) {
      item.dataset.status = doc.status;
      item.dataset.doc = doc.id;
      stage.textContent = progressText(doc);
      bar.value = progressValue(doc);
      clear(detail);
      if (doc.status === "failed") {
        const retry = h("button", { type: "button" }, "Retry");
        retry.addEventListener("click", () => {
          item.remove();
          track(name, send);
        });
        detail.append(h("p", { class: "error-text" }, doc.error || "Ingestion failed."), retry);
      } else if (doc.status === "ready") {
        detail.append(h("a", { href: `#/kb/${encodeURIComponent(kb)}/doc/${doc.id}` }, "Open"));
      }
    }

    async function follow(id) {
      if (stopped) return;
      try {
        const doc = await get(kbPath(kb, `/documents/${id}`));
        show(doc);
        if (DONE.has(doc.status)) {
          refresh();
          return;
        }
      } catch (error) {
        detail.replaceChildren(problemBox(error));
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        follow(id);
      }, POLL_MS);
      timers.add(timer);
    }

    (async () => {
      try {
        const doc = await send();
        show(doc);
        if (!DONE.has(doc.status)) follow(doc.id);
        else refresh();
      } catch (error) {
        item.dataset.status = "failed";
        stage.textContent = "not uploaded";
        const retry = h("button", { type: "button" }, "Retry");
        retry.addEventListener("click", () => {
          item.remove();
          track(name, send);
        });
        detail.replaceChildren(problemBox(error), retry);
      }
    })();
  }

  async function sendForm(form) {
    const response = await request("POST", kbPath(kb, "/documents"), { form });
    const body = await response.json();
    if (!response.ok) throw new ApiError(body);
    return body;
  }

  function uploadFiles(files, metadataText) {
    for (const file of files) {
      track(file.webkitRelativePath || file.name, () => {
        const form = new FormData();
        form.append("file", file, file.name);
        if (metadataText) form.append("metadata", metadataText);
        if (file.webkitRelativePath) form.append("source_uri", file.webkitRelativePath);
        return sendForm(form);
      });
    }
  }

  if (session.canWrite) main.append(uploadPanel());

  function uploadPanel() {
    const metadata = h("input", { name: "metadata", placeholder: '{"team": "support"}', autocomplete: "off" });
    const picker = h("input", { type: "file", multiple: true, name: "files" });
    const folder = h("input", { type: "file", multiple: true, webkitdirectory: true, name: "folder" });
    const metaSlot = h("div", {});
    function metadataText() {
      const text = metadata.value.trim();
      if (!text) return "";
      try {
        JSON.parse(text);
      } catch {
        metaSlot.replaceChildren(problemBox(new Error("Metadata is not valid JSON.")));
        return null;
      }
      metaSlot.replaceChildren();
      return text;
    }
    for (const input of [picker, folder]) {
      input.addEventListener("change", () => {
        const meta = metadataText();
        if (meta === null) return;
        uploadFiles([...input.files], meta);
        input.value = "";
      });
    }
    const drop = h(
      "div",
      { class: "dropzone", tabindex: "0", role: "button", "aria-label": "Drop files or folders here, or press Enter to choose files" },
      "Drop files or folders here (.txt .md .pdf .docx .csv .html)",
    );
    drop.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        picker.click();
      }
    });
    drop.addEventListener("dragover", (event) => {
      event.preventDefault();
      drop.classList.add("over");
    });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", async (event) => {
      event.preventDefault();
      drop.classList.remove("over");
      const meta = metadataText();
      if (meta === null) return;
      const entries = [...event.dataTransfer.items].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
      const files = entries.length
        ? (await Promise.all(entries.map(filesOf))).flat()
        : [...event.dataTransfer.files];
      uploadFiles(files, meta);
    });
    const pasteTitle = h("input", { name: "paste-title", autocomplete: "off" });
    const pasteText = h("textarea", { name: "paste-text", rows: 4 });
    const pasteButton = h("button", { type: "button" }, "Add text");
    pasteButton.addEventListener("click", () => {
      const meta = metadataText();
      if (meta === null || !pasteText.value.trim()) return;
      const body = { text: pasteText.value };
      if (pasteTitle.value.trim()) body.title = pasteTitle.value.trim();
      if (meta) body.metadata = JSON.parse(meta);
      track(body.title || "pasted text", () => post(kbPath(kb, "/documents"), body));
      pasteText.value = "";
      pasteTitle.value = "";
    });
    // A web page or file by its URL: the server fetches it (a 422 `url-unfetchable` says why
    // it could not, shown in the upload's row like any other refused upload).
    const urlInput = h("input", { type: "url", name: "url", placeholder: "https://example.com/guide.html", autocomplete: "off" });
    const urlForm = h("form", { class: "search-line", id: "upload-url" }, field("A web page or file by URL", urlInput), h("button", { type: "submit" }, "Add URL"));
    urlForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const meta = metadataText();
      const target = urlInput.value.trim();
      if (meta === null || !target) return;
      const body = { url: target };
      if (meta) body.metadata = JSON.parse(meta);
      track(target, () => post(kbPath(kb, "/documents"), body));
      urlInput.value = "";
    });
    return h(
      "section",
      { class: "card", id: "upload", "aria-labelledby": "upload-title" },
      h("h2", { id: "upload-title" }, "Upload"),
      drop,
      h("div", { class: "grid" }, field("Files", picker), field("A folder", folder), field("Metadata for these uploads (JSON)", metadata)),
      metaSlot,
      urlForm,
      h("details", {}, h("summary", {}, "Paste text"), field("Title", pasteTitle), field("Text", pasteText), pasteButton),
      uploads,
    );
  }

  // The document list.
  const status = h("select", { name: "status" }, h("option", { value: "" }, "any"), STATUSES.map((s) => h("option", { value: s }, s)));
  const metaFilter = h("input", { name: "metadata-filter", placeholder: '{"team": "support"}', autocomplete: "off" });
  const filters = h(
    "form",
    { class: "filters", "aria-label": "Filter documents" },
    field("Status", status),
    field("Metadata contains (JSON)", metaFilter),
    h("button", { type: "submit" }, "Filter"),
  );
  filters.addEventListener("submit", (event) => {
    event.preventDefault();
    refresh();
  });
  main.append(h("section", { "aria-labelledby": "docs-title" }, h("h2", { id: "docs-title" }, "Documents"), filters, listErrors, listSlot));

  let cursor = null;
  let rows = [];
  // Uploads finishing together each refresh the list: only the latest refresh draws it.
  let generation = 0;
  let listTimer = null;

  function docRow(doc) {
    const actions = h("td", { class: "actions" });
    if (session.canWrite) {
      const reindex = h("button", { type: "button" }, "Reindex");
      reindex.addEventListener("click", async () => {
        const done = await attempt(listErrors, () => post(kbPath(kb, `/documents/${doc.id}/reindex`), {}));
        if (done) track(doc.title, async () => done);
      });
      actions.append(
        reindex,
        " ",
        confirmButton("Delete", `Delete ${doc.title}?`, async () => {
          await attempt(listErrors, () => del(kbPath(kb, `/documents/${doc.id}`)));
          await refresh();
        }),
      );
    }
    return h(
      "tr",
      { "data-status": doc.status },
      h("td", {}, h("a", { href: `#/kb/${encodeURIComponent(kb)}/doc/${doc.id}` }, doc.title || doc.filename || doc.id)),
      h("td", {}, h("span", { class: `status status-${doc.status}` }, progressText(doc)), doc.error ? h("div", { class: "error-text" }, doc.error) : null),
      h("td", {}, doc.format || ""),
      h("td", { class: "num" }, formatBytes(doc.size_bytes)),
      h("td", { class: "num" }, doc.chunk_count),
      h("td", {}, formatTime(doc.updated_at)),
      actions,
    );
  }

  async function loadPage(reset) {
    const mine = reset ? ++generation : generation;
    const page = await get(kbPath(kb, "/documents"), {
      limit: 50,
      cursor: reset ? null : cursor,
      status: status.value,
      metadata: metaFilter.value.trim(),
    });
    if (mine !== generation) return;
    if (reset) rows = [];
    rows.push(...page.items.map(docRow));
    // Documents still in progress (uploaded elsewhere too): look again shortly.
    if (reset && !listTimer && page.items.some((doc) => !DONE.has(doc.status))) {
      listTimer = setTimeout(() => {
        listTimer = null;
        refresh();
      }, LIST_POLL_MS);
    }
    cursor = page.next_cursor;
    const more = cursor ? h("button", { type: "button", onclick: () => attempt(listErrors, () => loadPage(false)) }, "More") : null;
    append(clear(listSlot), [
      rows.length
        ? table("Documents", ["Title", "Status", "Format", "Size", "Chunks", "Updated", "Actions"], rows)
        : h("p", { class: "muted" }, "No documents."),
      more,
    ]);
  }

  async function refresh() {
    if (!stopped) await attempt(listErrors, () => loadPage(true));
  }

  await refresh();
  return () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    clearTimeout(listTimer);
  };
}
