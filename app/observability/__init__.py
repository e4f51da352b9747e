"""Operations: Prometheus metrics, OpenTelemetry traces, structured logs (docs/operations.md)."""
