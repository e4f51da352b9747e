"""Search: hybrid (vector + full text) retrieval over one or several knowledge bases."""
