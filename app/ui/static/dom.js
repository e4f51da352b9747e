// Builds elements from data. Text always goes in as text nodes (never parsed as HTML), so content
// from documents, metadata or errors can never become markup or script.

let nextId = 0;

export function uid(prefix = "f") {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      el.className = value;
    } else if (name === "value" && "value" in el) {
      // The attribute too, so that a form's reset() comes back to it.
      if (el.tagName === "INPUT") el.setAttribute("value", String(value));
      el.value = value;
    } else if (name === "checked") {
      el.defaultChecked = Boolean(value);
      el.checked = Boolean(value);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

// A labelled form control: the label names the control for screen readers and clicks.
export function field(labelText, control, hint) {
  if (!control.id) control.id = uid();
  const parts = [h("label", { for: control.id }, labelText), control];
  if (hint) {
    const hintEl = h("small", { id: uid("hint"), class: "hint" }, hint);
    control.setAttribute("aria-describedby", hintEl.id);
    parts.push(hintEl);
  }
  return h("div", { class: "field" }, parts);
}

// Search highlights arrive as text with <mark> tags: only those tags become elements, every
// other character (a "<script>" in the document included) stays text.
export function marked(fragment) {
  const out = document.createDocumentFragment();
  const parts = String(fragment).split(/(<mark>|<\/mark>)/);
  let inside = false;
  for (const part of parts) {
    if (part === "<mark>") inside = true;
    else if (part === "</mark>") inside = false;
    else if (part) out.append(inside ? h("mark", {}, part) : document.createTextNode(part));
  }
  return out;
}

export function formatBytes(n) {
  if (n == null) return "";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatTime(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

// A table inside a scrolling wrapper, so wide tables never widen a phone screen.
export function table(caption, headers, rows) {
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      {},
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, headers.map((text) => h("th", { scope: "col" }, text)))),
      h("tbody", {}, rows),
    ),
  );
}

// Asks again in place ("Delete x?  [Delete] [Cancel]") instead of a modal browser dialog.
export function confirmButton(label, question, action, { danger = true } = {}) {
  const wrap = h("span", { class: "confirm" });
  const start = h("button", { type: "button", class: danger ? "danger" : "" }, label);
  const reset = () => wrap.replaceChildren(start);
  start.addEventListener("click", () => {
    const yes = h("button", { type: "button", class: danger ? "danger" : "" }, `Yes, ${label.toLowerCase()}`);
    const no = h("button", { type: "button" }, "Cancel");
    yes.addEventListener("click", async () => {
      yes.disabled = true;
      try {
        await action();
      } finally {
        reset();
      }
    });
    no.addEventListener("click", () => {
      reset();
      start.focus();
    });
    wrap.replaceChildren(h("span", { class: "question" }, question), " ", yes, " ", no);
    no.focus();
  });
  wrap.append(start);
  return wrap;
}
