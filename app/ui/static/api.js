// The console's only way to the server: the public REST API, with the key from session
// storage in the Authorization header (never in a URL).

import { h } from "./dom.js";

const KEY_STORAGE = "arbor.apiKey";
// No knowledge base has this id; a write to it tells the key's scope without changing anything.
const NO_SUCH_KB = "00000000-0000-0000-0000-000000000000";

export const session = {
  key: sessionStorage.getItem(KEY_STORAGE),
  authOff: false,
  canWrite: false,
  canCreateKb: false,
  isAdmin: false,
  projects: [],
  answers: false,
};

export class ApiError extends Error {
  constructor(problem) {
    super(problem.title || "Error");
    this.problem = problem;
  }
}

function url(path, query) {
  const target = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === "") continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      target.searchParams.append(name, String(item));
    }
  }
  return target;
}

export async function request(method, path, { json, form, query, signal, key } = {}) {
  const headers = {};
  const token = key === undefined ? session.key : key;
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, signal, cache: "no-store" };
  if (json !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(json);
  } else if (form) {
    init.body = form;
  }
  let response;
  try {
    response = await fetch(url(path, query), init);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError({ title: "Network error", detail: "The server could not be reached.", status: 0 });
  }
  return response;
}

export async function api(method, path, options = {}) {
  const response = await request(method, path, options);
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  const body = type.includes("json") ? await response.json() : await response.text();
  const used = options.key === undefined ? session.key : options.key;
  if (response.status === 401 && used && used === session.key) {
    // The key stopped working (revoked, expired): back to the sign-in form, saying why.
    signOut();
    window.dispatchEvent(new CustomEvent("arbor:signed-out", { detail: body }));
  }
  if (!response.ok) {
    throw new ApiError(
      typeof body === "object" && body !== null
        ? body
        : { title: response.statusText || "Error", detail: String(body).slice(0, 300), status: response.status },
    );
  }
  return body;
}

export const get = (path, query, options = {}) => api("GET", path, { ...options, query });
export const post = (path, json, options = {}) => api("POST", path, { ...options, json });
export const patch = (path, json) => api("PATCH", path, { json });
export const del = (path) => api("DELETE", path);

export function kbPath(kb, rest = "") {
  return `/v1/knowledge-bases/${encodeURIComponent(kb)}${rest}`;
}

// What a caller may do, found by asking: the API has no "who am I" route. A list without a
// key that succeeds means auth is off; admin routes answer 403 to other keys; a write to a
// knowledge base that does not exist is 403 for read-only keys and 404 (or 422) otherwise.
// (Writes are audited: a sign-in with a non-admin key leaves these probes in the audit log.)
export async function discover(key) {
  await api("GET", "/v1/knowledge-bases", { query: { limit: 1 }, key });
  let isAdmin = false;
  let projects = [];
  try {
    projects = (await api("GET", "/v1/projects", { query: { limit: 200 }, key })).items;
    isAdmin = true;
  } catch (error) {
    if (!(error instanceof ApiError) || error.problem.status !== 403) throw error;
  }
  let canWrite = isAdmin;
  let canCreateKb = isAdmin;
  if (!isAdmin) {
    // A body no knowledge base can be made of: 422 for keys that may create one, 403 otherwise.
    const create = await request("POST", "/v1/knowledge-bases", { json: [], key });
    canCreateKb = create.status === 422;
    canWrite = canCreateKb;
    if (!canWrite) {
      // A key limited to some knowledge bases may still write to them.
      const write = await request("POST", kbPath(NO_SUCH_KB, "/documents/batch"), { json: {}, key });
      canWrite = write.status !== 403 && write.status !== 401;
    }
  }
  return { isAdmin, canWrite, canCreateKb, projects };
}

export async function signIn(key) {
  const found = await discover(key);
  sessionStorage.setItem(KEY_STORAGE, key);
  Object.assign(session, found, { key, authOff: false });
}

export async function openWithoutKey() {
  const response = await request("GET", "/v1/knowledge-bases", { query: { limit: 1 }, key: null });
  if (!response.ok) return false;
  Object.assign(session, await discover(null), { key: null, authOff: true });
  return true;
}

export function signOut() {
  sessionStorage.removeItem(KEY_STORAGE);
  Object.assign(session, { key: null, canWrite: false, canCreateKb: false, isAdmin: false, projects: [] });
}

// Whether the server has answers: the published contract lists the route when it exists.
export async function discoverAnswers() {
  try {
    const spec = await api("GET", "/openapi.json", { key: null });
    session.answers = Object.keys(spec.paths || {}).some((p) => p.endsWith("/{kb}/answer"));
  } catch {
    session.answers = false;
  }
}

// An API error as its problem+json title and detail (and each field error of a 422).
export function problemBox(error) {
  const problem = error instanceof ApiError ? error.problem : { title: "Error", detail: String(error?.message || error) };
  const box = h(
    "div",
    { class: "problem", role: "alert" },
    h("strong", { class: "problem-title" }, problem.title || "Error"),
    problem.status ? h("span", { class: "muted" }, ` (${problem.status})`) : null,
    problem.detail ? h("p", { class: "problem-detail" }, problem.detail) : null,
  );
  if (Array.isArray(problem.errors) && problem.errors.length) {
    box.append(
      h(
        "ul",
        { class: "problem-errors" },
        problem.errors.map((item) =>
          h("li", {}, h("code", {}, (item.loc || []).join(".")), ": ", item.msg || ""),
        ),
      ),
    );
  }
  return box;
}

// Runs an action and shows its error (or nothing) in a slot; returns the result or undefined.
export async function attempt(slot, action) {
  slot.replaceChildren();
  try {
    return await action();
  } catch (error) {
    if (error?.name === "AbortError") return undefined;
    slot.replaceChildren(problemBox(error));
    return undefined;
  }
}
