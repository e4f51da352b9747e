"""Knowledge graph and node enrichment: extraction after embedding, merge with provenance,
graph retrieval (standard and quick) and the context built from it."""
