"""Which searches keep Postgres's generic plan of their statement: those of the knowledge bases
this process searches often.

A generic plan saves the planning of every search (about 5 ms of Postgres CPU for a hybrid
one), but it can only use a knowledge base's partition and partial HNSW index when the id is
written into the statement's text, and then each knowledge base has statements of its own:
parsed once per connection (about 1.6 ms), planned five times before Postgres keeps a generic
plan, and holding about 1.6 MB of the connection's memory while the driver caches them (100
statements per connection). Searches that rotate over many knowledge bases pay the parse and
keep none, so only the knowledge bases searched again soon get their own statements; the
others share one statement with the id as a parameter, planned for each search.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Sequence

# Knowledge bases remembered per process, most recently searched last.
REMEMBERED = 16
# Searches while remembered after which a knowledge base's searches keep their plan.
SEARCHES_BEFORE_REUSE = 3


class RecentKnowledgeBases:
    """The most recently searched knowledge bases and how often each was searched while
    remembered. Used from the event loop only, so it needs no lock."""

    def __init__(self, remembered: int = REMEMBERED) -> None:
        self._remembered = remembered
        self._searches: OrderedDict[uuid.UUID, int] = OrderedDict()

    def note(self, knowledge_base_ids: Sequence[uuid.UUID]) -> bool:
        """Count a search of these knowledge bases; True when each has been searched often
        enough that the search should use (and keep) a plan of its own."""
        counts = []
        for kb_id in knowledge_base_ids:
            count = self._searches.pop(kb_id, 0) + 1
            self._searches[kb_id] = count
            counts.append(count)
        while len(self._searches) > self._remembered:
            self._searches.popitem(last=False)
        return len(knowledge_base_ids) <= self._remembered and all(
            count >= SEARCHES_BEFORE_REUSE for count in counts
        )


recent = RecentKnowledgeBases()
