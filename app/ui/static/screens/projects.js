// Projects (admin keys): the projects a key administers; instance admins create new ones.

import { attempt, get, post } from "../api.js";
import { clear, field, formatTime, h, table } from "../dom.js";

export async function render(main) {
  const errors = h("div", {});
  const listSlot = h("div", {});
  const name = h("input", { name: "name", required: true, autocomplete: "off" });
  const description = h("input", { name: "description" });
  const form = h("form", { class: "card", id: "create-project" }, h("h2", {}, "New project"), h("div", { class: "grid" }, field("Name", name), field("Description", description)), h("button", { type: "submit", class: "primary" }, "Create"));
  const formErrors = h("div", {});
  form.append(formErrors);
  main.append(h("h1", {}, "Projects"), errors, listSlot, form);

  async function load() {
    const page = await get("/v1/projects", { limit: 200 });
    clear(listSlot).append(
      table(
        "Projects",
        ["Name", "Description", "Created", ""],
        page.items.map((p) => h("tr", {}, h("td", {}, p.name), h("td", {}, p.description || ""), h("td", {}, formatTime(p.created_at)), h("td", {}, h("a", { href: `#/admin/keys?project=${encodeURIComponent(p.name)}` }, "Keys")))),
      ),
    );
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const made = await attempt(formErrors, () => post("/v1/projects", { name: name.value.trim(), description: description.value }));
    if (made) {
      form.reset();
      await attempt(errors, load);
    }
  });
  await attempt(errors, load);
  return null;
}
