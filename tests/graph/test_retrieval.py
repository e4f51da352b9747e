"""Both retrieval modes on a synthetic graph: caps, scores, fallbacks, growth and stopping."""

from __future__ import annotations

from typing import Any

import pytest

from app.graph import retrieval, search_repository
from tests.graph.synthetic import Graph, fixed


def action(found: retrieval.Retrieved, step: str) -> dict[str, Any]:
    return next(a for a in found.actions if a["step"] == step)


async def test_standard_caps_nodes_and_edges_with_its_shares(graph: Graph) -> None:
    otters = [(f"Otter {i:02d}", f"Otter number {i}.", None) for i in range(40)]
    beavers = [(f"Beaver {i:02d}", "A beaver.", None) for i in range(40)]
    await graph.write(
        otters + beavers,
        [
            (f"Beaver {i:02d}", f"Beaver {(i + 1) % 40:02d}", f"Seen with an otter {i}")
            for i in range(40)
        ],
    )
    async with await graph.session() as session:
        found = await retrieval.standard(session, graph.vis, "otter", vector_of=fixed(None))
    chosen = [n for n in found.nodes.values() if n.name.startswith("Otter")]
    assert len(chosen) == retrieval.NODE_CAP
    assert len(found.edges) == retrieval.EDGE_CAP
    step = action(found, "retrieve_knowledge")
    assert step["pattern_nodes"] == 9  # 60 % of 15
    assert step["pattern_edges"] == 12  # 60 % of 20
    assert step["trigram_nodes"] <= 6
    # Endpoints of the chosen edges are fetched: every edge has both ends among the nodes.
    assert all(
        e.source_id in found.nodes and e.target_id in found.nodes for e in found.edges.values()
    )
    assert not any(a.get("step") == "vector_fallback" for a in found.actions)  # enough found


async def test_standard_scores(graph: Graph) -> None:
    ids = await graph.write(
        [
            ("Sea otter", "Lives in kelp forests.", None),
            ("Kelp", "Otters hide in kelp.", None),
            ("Urchin", "Spiny.", None),
            ("Rock", "Hard.", None),
        ],
        [
            ("Sea otter", "Kelp", "An otter wraps itself in kelp."),
            ("Kelp", "Urchin", "Urchins eat kelp near otters."),
            ("Urchin", "Rock", "Urchins cling to rocks."),
        ],
    )
    async with await graph.session() as session:
        found = await retrieval.standard(session, graph.vis, "otter", vector_of=fixed(None))
    nodes = {n.name: n.score for n in found.nodes.values()}
    assert nodes["Sea otter"] == pytest.approx(1 + 3)  # pattern hit, name holds "otter"
    assert nodes["Kelp"] == pytest.approx(1 + 2)  # pattern hit through its summary
    edges = {e.fact: e.score for e in found.edges.values()}
    assert edges["An otter wraps itself in kelp."] == pytest.approx(1 + 2 + 3)  # both ends
    # Kelp is chosen, Urchin only fetched as an endpoint: one end.
    assert edges["Urchins eat kelp near otters."] == pytest.approx(1 + 2 + 1)
    assert ids["Urchin"] in found.nodes
    assert "Urchins cling to rocks." not in edges
    ranked = [n.name for n in found.ranked_nodes()]
    assert ranked[0] == "Sea otter"


async def test_vector_fallback_only_when_few_found_and_degrades(graph: Graph) -> None:
    await graph.write([("Alpha", "First.", [1.0, 0.0, 0.0]), ("Beta", "Second.", [0.0, 1.0, 0.0])])
    vector_of = fixed([1.0, 0.0, 0.0])
    async with await graph.session() as session:
        found = await retrieval.standard(session, graph.vis, "zebra", vector_of=vector_of)
    assert vector_of.calls == [1]  # type: ignore[attr-defined]
    assert action(found, "retrieve_knowledge")["vector_nodes"] == 2
    assert max(found.nodes.values(), key=lambda n: n.score).name == "Alpha"
    async with await graph.session() as session:
        found = await retrieval.standard(session, graph.vis, "zebra", vector_of=fixed(None))
    assert action(found, "vector_fallback")["degraded"] is True
    assert found.nodes == {}


async def test_a_failing_trigram_search_degrades(
    graph: Graph, monkeypatch: pytest.MonkeyPatch
) -> None:
    await graph.write([("Sea otter", "Lives in kelp.", None)])

    async def broken(*_args: Any, **_kwargs: Any) -> list[Any]:
        raise RuntimeError("pg_trgm is missing")

    monkeypatch.setattr(search_repository, "trigram_nodes", broken)
    async with await graph.session() as session:
        found = await retrieval.standard(session, graph.vis, "otter", vector_of=fixed(None))
    assert action(found, "trigram_search")["degraded"] is True
    assert [n.name for n in found.nodes.values()] == ["Sea otter"]


async def test_quick_grows_by_levels_and_stops(graph: Graph) -> None:
    chain = [
        (f"Link {i}", f"Link number {i}.", [1.0, 0.0] if i == 0 else [0.0, 1.0]) for i in range(6)
    ]
    await graph.write(
        chain, [(f"Link {i}", f"Link {i + 1}", f"Link {i} holds {i + 1}.") for i in range(5)]
    )
    async with await graph.session() as session:
        found = await retrieval.quick(
            session,
            graph.vis,
            "q",
            vector_of=fixed([1.0, 0.0]),
            search_limit=1,
            max_growth_levels=10,
        )
    scores = {n.name: n.score for n in found.nodes.values()}
    assert scores["Link 0"] == pytest.approx(1.0)
    for level in range(1, 6):
        assert scores[f"Link {level}"] == pytest.approx(1 / (level + 1))
    grow = [a for a in found.actions if a["step"] == "grow"]
    assert grow[-1] == {"step": "grow", "level": 6, "stopped": "no new nodes"}
    assert len(found.edges) == 5

    async with await graph.session() as session:
        limited = await retrieval.quick(
            session,
            graph.vis,
            "q",
            vector_of=fixed([1.0, 0.0]),
            search_limit=1,
            max_growth_levels=2,
        )
    assert {n.name for n in limited.nodes.values()} == {"Link 0", "Link 1", "Link 2"}


async def test_quick_caps_each_level(graph: Graph) -> None:
    spokes = [(f"Spoke {i:02d}", "A spoke.", [0.0, 1.0]) for i in range(50)]
    await graph.write(
        [("Hub", "The hub.", [1.0, 0.0]), *spokes],
        [("Hub", f"Spoke {i:02d}", f"Hub holds spoke {i}.") for i in range(50)],
    )
    async with await graph.session() as session:
        found = await retrieval.quick(
            session,
            graph.vis,
            "q",
            vector_of=fixed([1.0, 0.0]),
            search_limit=1,
            max_growth_levels=1,
        )
    level = next(a for a in found.actions if a["step"] == "grow")
    assert level["nodes"] == retrieval.NODES_PER_LEVEL
    assert len(found.nodes) == 1 + retrieval.NODES_PER_LEVEL
    assert len(found.edges) == retrieval.NODES_PER_LEVEL  # edges whose ends were both kept


def test_query_analysis_finds_names_and_falls_back_to_words() -> None:
    entities, method = retrieval.analyse_query("Where did Marie Curie work?")
    assert "Marie Curie" in entities
    assert method == "local"
    entities, method = retrieval.analyse_query("why so?")
    assert method == "words"
    assert entities == []
