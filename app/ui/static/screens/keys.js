// API keys (admin keys): a project's keys, create (the key is shown once), revoke.

import { attempt, del, get, post, session } from "../api.js";
import { clear, confirmButton, field, formatTime, h, table } from "../dom.js";

const SCOPES = ["read", "write", "admin"];

function splitList(text) {
  return text.split(",").map((s) => s.trim()).filter(Boolean);
}

export async function render(main, { project: wanted }) {
  const errors = h("div", {});
  const projects = session.projects.length ? session.projects : [{ name: "default" }];
  const project = h("select", { name: "project" }, projects.map((p) => h("option", { value: p.name }, p.name)));
  if (wanted) project.value = wanted;
  const listSlot = h("div", {});
  const shown = h("div", { "aria-live": "polite" });

  const name = h("input", { name: "key-name", required: true, autocomplete: "off" });
  const scopeBoxes = SCOPES.map((s) => h("input", { type: "checkbox", name: "scope", value: s, checked: s === "read" }));
  const principals = h("input", { name: "principals", placeholder: "group:staff, user:ann", autocomplete: "off" });
  const kbs = h("input", { name: "knowledge-bases", placeholder: "every knowledge base", autocomplete: "off" });
  const expires = h("input", { type: "datetime-local", name: "expires" });
  const formErrors = h("div", {});
  const form = h(
    "form",
    { class: "card", id: "create-key" },
    h("h2", {}, "New API key"),
    h("div", { class: "grid" }, field("Name", name), field("Principals (comma-separated)", principals), field("Limited to knowledge bases (ids, comma-separated)", kbs), field("Expires", expires)),
    h("fieldset", { class: "checks" }, h("legend", {}, "Scopes"), scopeBoxes.map((box) => h("label", {}, box, ` ${box.value}`))),
    formErrors,
    h("button", { type: "submit", class: "primary" }, "Create key"),
  );
  main.append(h("h1", {}, "API keys"), h("div", { class: "filters" }, field("Project", project)), errors, shown, listSlot, form);

  async function load() {
    const items = [];
    let cursor;
    do {
      const page = await get(`/v1/projects/${encodeURIComponent(project.value)}/api-keys`, { limit: 200, cursor });
      items.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor && items.length < 1000);
    clear(listSlot).append(
      table(
        `Keys of ${project.value}`,
        ["Name", "Prefix", "Scopes", "Principals", "Status", "Created", "Expires", ""],
        items.map((k) =>
          h(
            "tr",
            { "data-key": k.id, "data-name": k.name },
            h("td", {}, k.name),
            h("td", {}, h("code", {}, k.prefix)),
            h("td", {}, k.scopes.join(", ")),
            h("td", {}, (k.principals || []).join(", ")),
            h("td", {}, h("span", { class: `status status-${k.status}` }, k.status)),
            h("td", {}, formatTime(k.created_at)),
            h("td", {}, formatTime(k.expires_at)),
            h(
              "td",
              {},
              k.status === "active"
                ? confirmButton("Revoke", `Revoke ${k.name}? It stops working at once.`, async () => {
                    await attempt(errors, () => del(`/v1/projects/${encodeURIComponent(project.value)}/api-keys/${k.id}`));
                    await attempt(errors, load);
                  })
                : null,
            ),
          ),
        ),
      ),
    );
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { name: name.value.trim(), scopes: scopeBoxes.filter((b) => b.checked).map((b) => b.value), principals: splitList(principals.value) };
    if (kbs.value.trim()) body.knowledge_bases = splitList(kbs.value);
    if (expires.value) body.expires_at = new Date(expires.value).toISOString();
    const made = await attempt(formErrors, () => post(`/v1/projects/${encodeURIComponent(project.value)}/api-keys`, body));
    if (!made) return;
    form.reset();
    const keyText = h("code", { class: "secret", id: "new-key" }, made.key);
    const copy = h("button", { type: "button" }, "Copy");
    copy.addEventListener("click", () => navigator.clipboard?.writeText(made.key));
    shown.replaceChildren(
      h("div", { class: "card once", role: "status" }, h("strong", {}, `Key ${made.name} created. `), "Copy it now: it is shown only this once.", h("p", {}, keyText, " ", copy)),
    );
    await attempt(errors, load);
  });
  project.addEventListener("change", () => attempt(errors, load));
  await attempt(errors, load);
  return null;
}
