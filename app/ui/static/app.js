// The console shell: sign-in, navigation and the hash router (#/kb/name/...). Each screen is
// a module whose render(main, params) may return a function that stops its background work.

import { ApiError, discoverAnswers, openWithoutKey, problemBox, session, signIn, signOut } from "./api.js";
import { clear, field, h } from "./dom.js";

const ROUTES = [
  [/^\/?$/, "knowledge-bases", () => ({})],
  [/^\/kb\/([^/]+)\/?$/, "documents", (m) => ({ kb: m[1] })],
  [/^\/kb\/([^/]+)\/search$/, "search", (m) => ({ kb: m[1] })],
  [/^\/kb\/([^/]+)\/answer$/, "answer", (m) => ({ kb: m[1] })],
  [/^\/kb\/([^/]+)\/graph$/, "graph", (m) => ({ kb: m[1] })],
  [/^\/kb\/([^/]+)\/sources$/, "sources", (m) => ({ kb: m[1] })],
  [/^\/kb\/([^/]+)\/doc\/([^/?]+)(?:\?chunk=([^/]+))?$/, "document", (m) => ({ kb: m[1], doc: m[2], chunk: m[3] })],
  [/^\/events$/, "events", () => ({})],
  [/^\/admin\/projects$/, "projects", () => ({})],
  [/^\/admin\/keys(?:\?project=([^&]+))?$/, "keys", (m) => ({ project: m[1] })],
  [/^\/admin\/webhooks$/, "webhooks", () => ({})],
  [/^\/admin\/audit$/, "audit", () => ({})],
];

const main = document.getElementById("main");
let stopScreen = null;

function renderNav() {
  const nav = clear(document.getElementById("nav"));
  const who = clear(document.getElementById("who"));
  const signedIn = session.authOff || session.key;
  if (!signedIn) return;
  const links = [["#/", "Knowledge bases"], ["#/events", "Events"]];
  if (session.isAdmin) {
    links.push(["#/admin/projects", "Projects"], ["#/admin/keys", "API keys"], ["#/admin/webhooks", "Webhooks"], ["#/admin/audit", "Audit"]);
  }
  const current = window.location.hash || "#/";
  nav.append(
    h(
      "ul",
      {},
      links.map(([href, text]) =>
        h("li", {}, h("a", { href, "aria-current": current === href ? "page" : null }, text)),
      ),
    ),
  );
  const role = session.isAdmin ? "admin" : session.canWrite ? "read and write" : "read only";
  who.append(h("span", { class: "muted" }, session.authOff ? "Auth off · admin" : `Signed in · ${role}`));
  if (!session.authOff) {
    who.append(
      " ",
      h("button", { type: "button", class: "link", onclick: () => { signOut(); route(); } }, "Sign out"),
    );
  }
}

function renderSignIn(error) {
  const input = h("input", { type: "password", name: "key", autocomplete: "off", required: true, spellcheck: "false" });
  const slot = h("div", {});
  if (error) slot.append(problemBox(error));
  const form = h(
    "form",
    { class: "card narrow", id: "sign-in" },
    h("h1", {}, "Sign in"),
    h("p", {}, "Use an Arbor API key (arb_…). It stays in this tab's session storage and goes only into request headers."),
    field("API key", input),
    slot,
    h("button", { type: "submit", class: "primary" }, "Sign in"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await signIn(input.value.trim());
      route();
    } catch (err) {
      slot.replaceChildren(problemBox(err));
      input.focus();
    }
  });
  clear(main).append(form);
  input.focus();
}

async function route() {
  if (stopScreen) {
    stopScreen();
    stopScreen = null;
  }
  renderNav();
  if (!session.authOff && !session.key) {
    renderSignIn();
    return;
  }
  const path = (window.location.hash || "#/").slice(1);
  for (const [pattern, name, params] of ROUTES) {
    const match = path.match(pattern);
    if (!match) continue;
    const decoded = Object.fromEntries(
      Object.entries(params(match)).map(([k, v]) => [k, v === undefined ? v : decodeURIComponent(v)]),
    );
    clear(main);
    try {
      const screen = await import(`./screens/${name}.js`);
      stopScreen = (await screen.render(main, decoded)) || null;
    } catch (error) {
      main.append(problemBox(error));
    }
    // The new screen's name in the tab's title, and keyboard focus inside it (unless the
    // screen put it somewhere already): the link that led here is gone.
    const heading = main.querySelector("h1");
    document.title = heading ? `${heading.textContent} · Arbor` : "Arbor";
    if (!main.contains(document.activeElement)) main.focus({ preventScroll: true });
    return;
  }
  clear(main).append(h("h1", {}, "Not found"), h("p", {}, h("a", { href: "#/" }, "Back to the knowledge bases")));
}

async function start() {
  await discoverAnswers();
  try {
    if (!(await openWithoutKey()) && session.key) await signIn(session.key);
  } catch (error) {
    signOut();
    renderNav();
    renderSignIn(error);
    window.addEventListener("hashchange", route);
    return;
  }
  window.addEventListener("hashchange", route);
  window.addEventListener("arbor:signed-out", (event) => {
    if (stopScreen) {
      stopScreen();
      stopScreen = null;
    }
    renderNav();
    renderSignIn(new ApiError(event.detail));
  });
  await route();
}

start();
