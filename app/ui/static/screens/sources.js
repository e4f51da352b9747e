// A knowledge base's sources: the list, a new `records` or `http` source (admin keys: creating
// a source needs the admin scope), a sync or a dry run of one (write keys), its runs followed
// until they end, and a record pushed to a `records` source.

import { attempt, del, get, kbPath, post, session } from "../api.js";
import { clear, confirmButton, field, formatTime, h, table } from "../dom.js";
import { kbHeader } from "./kb-header.js";

const RUN_POLL_MS = 1000;
const COUNTS = ["to_add", "to_update", "to_delete", "unchanged", "failed"];

function configText(source) {
  const c = source.config || {};
  if (source.kind === "http") return [...(c.urls || []), ...(c.sitemaps || [])].join(" ");
  if (source.kind === "folder") return c.path || "";
  return "pushed records";
}

function countsText(counts) {
  return COUNTS.map((name) => `${name.replace("to_", "")} ${counts[name] ?? 0}`).join(" · ");
}

function urlsOf(text) {
  return text.split(/\s+/).map((line) => line.trim()).filter(Boolean);
}

function createForm(kb, onCreated) {
  const name = h("input", { name: "source-name", required: true, maxlength: 64, pattern: "[a-z0-9][a-z0-9_\\-]*", autocomplete: "off" });
  const kind = h("select", { name: "source-kind" }, h("option", { value: "http" }, "http: web pages"), h("option", { value: "records" }, "records: pushed by a system"));
  const urls = h("textarea", { name: "source-urls", rows: 2, placeholder: "https://intranet.example.com/handbook" });
  const depth = h("input", { type: "number", name: "source-depth", min: 0, max: 5, placeholder: "no crawl" });
  const every = h("input", { name: "source-every", placeholder: "1h", autocomplete: "off" });
  const httpFields = h("div", { class: "grid" }, field("URLs (one a line)", urls), field("Crawl depth (same host)", depth, "Empty: only these pages."));
  kind.addEventListener("change", () => {
    httpFields.hidden = kind.value !== "http";
  });
  const slot = h("div", {});
  const form = h(
    "form",
    { class: "card", id: "create-source" },
    h("h2", {}, "New source"),
    h("div", { class: "grid" }, field("Name", name, "Lower-case letters, digits, - and _."), field("Kind", kind), field("Sync every", every, "Empty: only when asked (30m, 1h, 1d).")),
    httpFields,
    slot,
    h("button", { type: "submit", class: "primary" }, "Create source"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { name: name.value.trim(), kind: kind.value };
    if (kind.value === "http") {
      body.urls = urlsOf(urls.value);
      if (depth.value !== "") body.crawl = { depth: Number(depth.value) };
    }
    if (every.value.trim()) body.schedule = { every: every.value.trim() };
    const created = await attempt(slot, () => post(kbPath(kb, "/sources"), body));
    if (created) {
      form.reset();
      httpFields.hidden = false;
      onCreated(created);
    }
  });
  return form;
}

// Pushed records are documents at once (no run): the answer says what became of each.
function recordForm(kb, source) {
  const recordId = h("input", { name: "record-id", required: true, autocomplete: "off" });
  const title = h("input", { name: "record-title", autocomplete: "off" });
  const content = h("textarea", { name: "record-content", rows: 3, required: true });
  const slot = h("div", {});
  const form = h("form", { class: "card", id: "push-record" }, h("h3", {}, "Push a record"), h("div", { class: "grid" }, field("Record id", recordId), field("Title", title)), field("Content", content), slot, h("button", { type: "submit" }, "Push"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const record = { op: "upsert", record_id: recordId.value.trim(), content: content.value };
    if (title.value.trim()) record.title = title.value.trim();
    const done = await attempt(slot, () => post(kbPath(kb, `/sources/${source.id}/records`), { records: [record] }));
    if (done) {
      form.reset();
      slot.append(h("p", { class: "muted" }, done.results.map((r) => `${r.record_id}: ${r.result}`).join(", ")));
    }
  });
  return form;
}

export async function render(main, { kb }) {
  let stopped = false;
  let runTimer = null;
  main.append(kbHeader(kb, "sources"));
  const errors = h("div", {});
  const listSlot = h("div", {});
  const detail = h("section", { id: "source-detail", "aria-live": "polite" });
  main.append(errors, h("section", { "aria-labelledby": "sources-title" }, h("h2", { id: "sources-title" }, "Sources"), listSlot), detail);

  function stopPolling() {
    clearTimeout(runTimer);
    runTimer = null;
  }

  async function showRuns(source) {
    stopPolling();
    const page = await get(kbPath(kb, `/sources/${source.id}/runs`), { limit: 20 });
    const rows = page.items.map((run) =>
      h(
        "tr",
        { "data-run": run.id, "data-status": run.status },
        h("td", {}, formatTime(run.created_at)),
        h("td", {}, run.trigger),
        h("td", {}, h("span", { class: `status status-${run.status === "succeeded" ? "ready" : run.status}` }, run.status)),
        h("td", {}, countsText(run.counts)),
        h("td", { class: "num" }, run.duration_s == null ? "" : `${run.duration_s.toFixed(1)} s`),
        h("td", {}, run.error ? h("span", { class: "error-text" }, run.error) : null, run.errors.map((item) => h("div", { class: "error-text" }, `${item.item}: ${item.error}`))),
      ),
    );
    clear(detail).append(
      h("h2", {}, `Runs of ${source.name}`),
      rows.length ? table("Runs", ["Started", "Trigger", "Status", "Counts", "Duration", "Errors"], rows) : h("p", { class: "muted" }, "No runs yet."),
    );
    if (source.kind === "records" && session.canWrite) detail.append(recordForm(kb, source));
    // A run under way: follow it until it ends.
    if (!stopped && page.items.some((run) => run.status === "queued" || run.status === "running")) {
      runTimer = setTimeout(() => attempt(errors, () => showRuns(source)), RUN_POLL_MS);
    }
  }

  async function dryRun(source) {
    stopPolling();
    const plan = await post(kbPath(kb, `/sources/${source.id}/sync`), { dry_run: true });
    const items = plan.items.map((item) => h("tr", { "data-action": item.action }, h("td", {}, item.item), h("td", {}, item.action)));
    clear(detail).append(
      h("h2", {}, `Dry run of ${source.name}`),
      h("p", { class: "dry-run-counts" }, countsText(plan.counts)),
      plan.errors.length ? h("ul", {}, plan.errors.map((item) => h("li", { class: "error-text" }, `${item.item}: ${item.error}`))) : null,
      items.length ? table("What a sync would do", ["Item", "Action"], items) : h("p", { class: "muted" }, "Nothing to do."),
    );
  }

  async function sync(source) {
    await post(kbPath(kb, `/sources/${source.id}/sync`), {});
    await showRuns(source);
  }

  async function load() {
    const page = await get(kbPath(kb, "/sources"), { limit: 200 });
    const rows = page.items.map((source) => {
      const actions = h("td", { class: "actions" });
      const button = (text, action) => h("button", { type: "button", onclick: () => attempt(errors, () => action(source)) }, text);
      actions.append(button("Runs", showRuns));
      if (session.canWrite) actions.append(" ", button("Dry run", dryRun), " ", button("Sync", sync));
      if (session.isAdmin) {
        actions.append(
          " ",
          confirmButton("Delete", `Delete ${source.name} and its documents?`, async () => {
            await attempt(errors, () => del(kbPath(kb, `/sources/${source.id}`)));
            clear(detail);
            await refresh();
          }),
        );
      }
      return h(
        "tr",
        { "data-name": source.name },
        h("td", {}, source.name),
        h("td", {}, source.kind),
        h("td", { class: "wrap" }, configText(source)),
        h("td", {}, source.schedule ? `every ${source.schedule.every}` : "when asked"),
        actions,
      );
    });
    clear(listSlot).append(
      rows.length ? table("Sources", ["Name", "Kind", "From", "Schedule", "Actions"], rows) : h("p", { class: "muted" }, "No sources."),
    );
  }

  async function refresh() {
    await attempt(errors, load);
  }

  if (session.isAdmin) main.insertBefore(createForm(kb, refresh), detail);
  await refresh();
  return () => {
    stopped = true;
    stopPolling();
  };
}
