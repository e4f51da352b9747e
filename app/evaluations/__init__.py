"""Retrieval evaluation: a judged query set run through search, scored as trec_eval does."""
