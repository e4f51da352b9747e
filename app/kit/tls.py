"""The TLS context of the service's outgoing HTTPS clients, built once per process."""

from __future__ import annotations

import functools
import ssl

import httpx


@functools.cache
def client_tls_context(*, trust_env: bool = True) -> ssl.SSLContext:
    """httpx's default verification (the CA bundle, or `SSL_CERT_FILE`/`SSL_CERT_DIR` when
    `trust_env`), shared: loading the CA bundle takes some 30 ms, which a client made per
    request (a rerank, a fetched page) or per app would otherwise pay every time. An
    `SSLContext` may serve many connections and threads at once."""
    return httpx.create_ssl_context(trust_env=trust_env)
