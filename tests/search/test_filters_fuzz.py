"""Whatever JSON arrives as a filter, the answer is 200 or a 422 problem, never a 500."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from app.config import Settings
from app.kit.filters import compile_filter
from app.main import create_app
from app.search.fields import SEARCH_FIELDS
from tests.search.corpus import KeywordEmbedders

FIELDS = [*SEARCH_FIELDS.fields, "metadata.year", "metadata.a.b", "metadata.", "metadata.x y", "z"]
OPERATORS = [
    "$eq", "$ne", "$in", "$nin", "$gt", "$gte", "$lt", "$lte", "$exists", "$contains", "$not",
    "$and", "$or", "$regex",
]  # fmt: skip
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["2024-01-01", "00000000-0000-0000-0000-000000000000", "pdf", "x\u0000"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(OPERATORS + FIELDS), inner, max_size=3),
    ),
    max_leaves=12,
)
filters = st.dictionaries(st.sampled_from(FIELDS + OPERATORS), values, max_size=4)


@given(spec=filters)
@settings(max_examples=60, deadline=None)
def test_compiling_any_filter_raises_only_filter_errors(spec: dict[str, Any]) -> None:
    from app.kit.filters import FilterError

    errors: list[FilterError] = []
    try:
        compile_filter(spec, SEARCH_FIELDS)
    except FilterError as error:
        errors.append(error)
    for error in errors:
        assert error.status == 422
        assert error.detail.startswith("Invalid filter")


def test_filters_against_the_database_never_fail_with_500(database_url: str) -> None:
    app = create_app(
        Settings(env="test", database_url=database_url), embedder_factory=KeywordEmbedders()
    )
    with TestClient(app) as http:
        created = http.post("/v1/knowledge-bases", json={"name": "fuzz"})
        assert created.status_code == 201
        url = f"/v1/knowledge-bases/{created.json()['id']}/search"
        statuses: set[int] = set()

        @given(spec=filters)
        @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
        def check(spec: dict[str, Any]) -> None:
            response = http.post(url, json={"query": "figures", "filter": spec})
            assert response.status_code in (200, 422), response.text
            statuses.add(response.status_code)
            if response.status_code == 422:
                assert response.headers["content-type"] == "application/problem+json"

        check()
        assert statuses == {200, 422}
