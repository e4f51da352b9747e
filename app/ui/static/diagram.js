// Draws a small graph (nodes and typed edges) as SVG, laid out on a circle, or around one
// centre node. No library can be loaded (no CDN, strict CSP), and a few dozen nodes need no
// force simulation. Names and types go in as text nodes, never as markup; colours come from
// classes in console.css (an inline style attribute would be refused by the CSP).

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 820;
const HEIGHT = 560;
const NODE_R = 16;
const LABEL_MAX = 24;
const TYPE_CLASSES = {
  PERSON: "person",
  ORG: "org",
  GPE: "place",
  LOC: "place",
  FAC: "place",
  CONCEPT: "concept",
};

let nextMarker = 0;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) el.setAttribute(name, String(value));
  }
  for (const child of children) if (child != null) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

function cut(text) {
  const value = String(text ?? "");
  return value.length > LABEL_MAX ? `${value.slice(0, LABEL_MAX - 1)}…` : value;
}

// Positions: the centre node (if any) in the middle and the others evenly on a circle.
function layout(nodes, centre) {
  const cx = WIDTH / 2;
  const cy = HEIGHT / 2;
  const ring = nodes.filter((node) => node.id !== centre);
  const radius = Math.min(WIDTH, HEIGHT) / 2 - 60;
  const at = new Map();
  if (centre !== undefined && nodes.some((node) => node.id === centre)) at.set(centre, { x: cx, y: cy });
  ring.forEach((node, i) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(ring.length, 1);
    at.set(node.id, { x: cx + radius * Math.cos(angle), y: cy + radius * Math.sin(angle) });
  });
  return at;
}

// The path of one edge: straight, bent aside when several edges join the same two nodes, a
// loop when it joins a node to itself; both ends stop at the nodes' rims.
function edgePath(a, b, bend) {
  if (a === b) {
    const x = a.x;
    const y = a.y - NODE_R;
    return { d: `M ${x - 6} ${y} C ${x - 40} ${y - 50}, ${x + 40} ${y - 50}, ${x + 6} ${y}`, mx: x, my: y - 42 };
  }
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length;
  const uy = dy / length;
  const sx = a.x + ux * NODE_R;
  const sy = a.y + uy * NODE_R;
  const ex = b.x - ux * (NODE_R + 4);
  const ey = b.y - uy * (NODE_R + 4);
  const qx = (sx + ex) / 2 - uy * bend;
  const qy = (sy + ey) / 2 + ux * bend;
  // The label sits on the curve's middle: halfway between the chord's middle and the control.
  return { d: `M ${sx} ${sy} Q ${qx} ${qy} ${ex} ${ey}`, mx: ((sx + ex) / 2 + qx) / 2, my: ((sy + ey) / 2 + qy) / 2 };
}

/**
 * An <svg> of `nodes` ({id, name, type, score?}) and `edges` ({source_id, target_id, type}).
 * `onSelect(node)` is called when a node is clicked or chosen with Enter; `centre` puts one
 * node in the middle. Edges whose ends are not among the nodes are left out.
 */
export function diagram({ nodes, edges, label, centre, onSelect }) {
  const at = layout(nodes, centre);
  const markerId = `arrow-${++nextMarker}`;
  const root = svg("svg", {
    class: "diagram",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "group",
    "aria-label": label,
    preserveAspectRatio: "xMidYMid meet",
  });
  root.append(
    svg(
      "defs",
      {},
      svg(
        "marker",
        { id: markerId, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
        svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrow" }),
      ),
    ),
  );
  const drawn = edges.filter((edge) => at.has(edge.source_id) && at.has(edge.target_id));
  const pairs = new Map();
  for (const edge of drawn) {
    const key = [edge.source_id, edge.target_id].sort().join(" ");
    pairs.set(key, [...(pairs.get(key) || []), edge]);
  }
  const edgeLayer = svg("g", { class: "edges" });
  for (const group of pairs.values()) {
    group.forEach((edge, i) => {
      // Edges stored in the other direction bend the other way: flip so that all spread apart.
      const flip = edge.source_id > edge.target_id ? -1 : 1;
      const bend = (i - (group.length - 1) / 2) * 36 * flip;
      const path = edgePath(at.get(edge.source_id), at.get(edge.target_id), bend);
      edgeLayer.append(
        svg(
          "g",
          { class: "edge", "data-type": edge.type },
          svg("path", { d: path.d, "marker-end": `url(#${markerId})` }),
          svg("text", { x: path.mx, y: path.my - 3, "text-anchor": "middle", class: "edge-label" }, cut(edge.type)),
          edge.fact ? svg("title", {}, edge.fact) : null,
        ),
      );
    });
  }
  const nodeLayer = svg("g", { class: "nodes" });
  for (const node of nodes) {
    const point = at.get(node.id);
    const kind = TYPE_CLASSES[node.type] || "other";
    const group = svg(
      "g",
      {
        class: `graph-node graph-node-${kind}${node.id === centre ? " graph-node-centre" : ""}`,
        "data-id": node.id,
        transform: `translate(${point.x} ${point.y})`,
        tabindex: onSelect ? 0 : null,
        role: onSelect ? "button" : null,
        "aria-label": `${node.name} (${node.type})`,
      },
      svg("title", {}, `${node.name} · ${node.type}${node.summary ? `\n${node.summary}` : ""}`),
      svg("circle", { r: NODE_R }),
      svg("text", { y: NODE_R + 15, "text-anchor": "middle", class: "node-label" }, cut(node.name)),
    );
    if (onSelect) {
      group.addEventListener("click", () => onSelect(node));
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          onSelect(node);
        }
      });
    }
    nodeLayer.append(group);
  }
  root.append(edgeLayer, nodeLayer);
  return root;
}

// The node types drawn in each colour, for a legend beside a diagram.
export const LEGEND = [
  ["person", "person"],
  ["org", "organisation"],
  ["place", "place"],
  ["concept", "concept"],
  ["other", "other"],
];
