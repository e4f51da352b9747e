// Ask a question: the answer streamed as server-sent events (action, sources, delta,
// citation, done, error), the actions as a timeline, citations linking to the cited passage.

import { ApiError, attempt, kbPath, request } from "../api.js";
import { clear, field, h } from "../dom.js";
import { kbHeader } from "./kb-header.js";

// Splits a text/event-stream body into {event, data} records as it arrives.
async function* events(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const record = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
      let event = "message";
      const data = [];
      for (const line of record.split(/\r?\n/)) {
        if (line.startsWith(":")) continue; // keep-alive comment
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) yield { event, data: JSON.parse(data.join("\n")) };
    }
  }
}

function sourceLink(kb, source, label) {
  const chunk = source.chunk_id ? `?chunk=${source.chunk_id}` : "";
  return h("a", { href: `#/kb/${encodeURIComponent(kb)}/doc/${source.doc_id}${chunk}` }, label);
}

function withMarkers(kb, text, byNumber) {
  const out = document.createDocumentFragment();
  for (const part of String(text).split(/(\[\d+\])/)) {
    const source = byNumber.get(Number(part.slice(1, -1)));
    out.append(/^\[\d+\]$/.test(part) && source ? sourceLink(kb, source, part) : document.createTextNode(part));
  }
  return out;
}

export async function render(main, { kb }) {
  main.append(kbHeader(kb, "answer"));
  const question = h("input", { type: "search", name: "question", autocomplete: "off" });
  const form = h("form", { class: "card", id: "ask-form" }, h("div", { class: "search-line" }, field("Question", question), h("button", { type: "submit", class: "primary" }, "Ask")));
  const errors = h("div", {});
  const answer = h("div", { class: "answer", id: "answer", "aria-live": "polite" });
  const timeline = h("ol", { class: "timeline", "aria-label": "What was done" });
  const sources = h("ol", { class: "sources" });
  const citations = h("ul", { class: "citations" });
  main.append(
    form,
    errors,
    h("div", { class: "answer-view" }, h("section", {}, h("h2", {}, "Answer"), answer, h("h3", {}, "Citations"), citations), h("aside", {}, h("h3", {}, "Steps"), timeline, h("h3", {}, "Sources"), sources)),
  );
  let controller = null;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    controller?.abort();
    controller = new AbortController();
    [answer, timeline, sources, citations].forEach(clear);
    const byNumber = new Map();
    await attempt(errors, async () => {
      const response = await request("POST", kbPath(kb, "/answer"), { json: { query: question.value, stream: true }, signal: controller.signal });
      if (!response.ok) throw new ApiError(await response.json());
      for await (const { event: type, data } of events(response)) {
        if (type === "action") {
          timeline.append(h("li", {}, h("strong", {}, data.stage || "step"), " ", data.message || "", data.elapsed_ms != null ? h("span", { class: "muted" }, ` ${Math.round(data.elapsed_ms)} ms`) : null));
        } else if (type === "sources") {
          for (const source of data.sources || []) {
            byNumber.set(source.n, source);
            sources.append(
              h(
                "li",
                { value: source.n },
                sourceLink(kb, source, source.doc_title || source.doc_id),
                " ",
                h("span", { class: "muted" }, (source.section_titles || []).join(" › ")),
                h("p", { class: "hit-text" }, source.text || ""),
              ),
            );
          }
        } else if (type === "delta") {
          answer.append(data.text || "");
        } else if (type === "citation") {
          citations.append(
            h(
              "li",
              {},
              `[${data.n}] `,
              sourceLink(kb, data, data.doc_title || data.doc_id),
              data.quote ? h("blockquote", {}, data.quote) : null,
            ),
          );
        } else if (type === "error") {
          throw new ApiError(data);
        } else if (type === "done") {
          // The finished answer again, its [n] markers now links to the cited passages.
          answer.replaceChildren(withMarkers(kb, data.answer || answer.textContent, byNumber));
          for (const warning of data.warnings || []) answer.after(h("p", { class: "warning" }, typeof warning === "string" ? warning : JSON.stringify(warning)));
        }
      }
    });
  });
  question.focus();
  return () => controller?.abort();
}
