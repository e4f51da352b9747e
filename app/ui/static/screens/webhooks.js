// Webhooks (admin keys): the event feed pushed to URLs; create (the secret is shown once),
// pause and resume, rotate the secret, delete.

import { attempt, del, get, patch, post } from "../api.js";
import { clear, confirmButton, field, formatTime, h, table } from "../dom.js";

const TYPES = ["knowledge_base.created", "knowledge_base.updated", "knowledge_base.deleted", "document.ready", "document.failed", "document.updated", "document.deleted"];

export async function render(main) {
  const errors = h("div", {});
  const shown = h("div", { "aria-live": "polite" });
  const listSlot = h("div", {});
  const url = h("input", { type: "url", name: "url", required: true, placeholder: "https://example.com/hooks/arbor" });
  const description = h("input", { name: "description" });
  const boxes = TYPES.map((t) => h("input", { type: "checkbox", name: "type", value: t }));
  const formErrors = h("div", {});
  const form = h(
    "form",
    { class: "card", id: "create-webhook" },
    h("h2", {}, "New webhook"),
    h("div", { class: "grid" }, field("URL", url), field("Description", description)),
    h("fieldset", { class: "checks" }, h("legend", {}, "Event types (none: all)"), boxes.map((b) => h("label", {}, b, ` ${b.value}`))),
    formErrors,
    h("button", { type: "submit", class: "primary" }, "Create webhook"),
  );
  main.append(h("h1", {}, "Webhooks"), errors, shown, listSlot, form);

  function showSecret(hook) {
    shown.replaceChildren(h("div", { class: "card once", role: "status" }, h("strong", {}, "Signing secret: "), "shown only this once. ", h("code", { class: "secret" }, hook.secret)));
  }

  async function load() {
    const page = await get("/v1/webhooks", { limit: 200 });
    clear(listSlot).append(
      page.items.length
        ? table(
            "Webhooks",
            ["URL", "Types", "Active", "Last delivery", "Last error", ""],
            page.items.map((w) => {
              const toggle = h("button", { type: "button" }, w.active ? "Pause" : "Resume");
              toggle.addEventListener("click", async () => {
                await attempt(errors, () => patch(`/v1/webhooks/${w.id}`, { active: !w.active }));
                await attempt(errors, load);
              });
              const rotate = h("button", { type: "button" }, "Rotate secret");
              rotate.addEventListener("click", async () => {
                const hook = await attempt(errors, () => post(`/v1/webhooks/${w.id}/rotate-secret`, {}));
                if (hook) showSecret(hook);
              });
              return h(
                "tr",
                {},
                h("td", {}, w.url, w.description ? h("div", { class: "muted" }, w.description) : null),
                h("td", {}, (w.types || ["all"]).join(", ")),
                h("td", {}, w.active ? "yes" : "no"),
                h("td", {}, formatTime(w.delivered_at), w.last_status ? ` (${w.last_status})` : ""),
                h("td", { class: "error-text" }, w.last_error || ""),
                h("td", { class: "actions" }, toggle, " ", rotate, " ", confirmButton("Delete", `Delete the webhook to ${w.url}?`, async () => {
                  await attempt(errors, () => del(`/v1/webhooks/${w.id}`));
                  await attempt(errors, load);
                })),
              );
            }),
          )
        : h("p", { class: "muted" }, "No webhooks."),
    );
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { url: url.value.trim(), description: description.value };
    const types = boxes.filter((b) => b.checked).map((b) => b.value);
    if (types.length) body.types = types;
    const hook = await attempt(formErrors, () => post("/v1/webhooks", body));
    if (!hook) return;
    form.reset();
    showSecret(hook);
    await attempt(errors, load);
  });
  await attempt(errors, load);
  return null;
}
