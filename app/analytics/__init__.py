"""Search analytics: what a knowledge base is asked, how fast, and what finds nothing."""
