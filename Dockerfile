# syntax=docker/dockerfile:1
# Arbor: CPU-only image. The model is converted in a throwaway stage (torch, CPU wheel) and
# only the verified ONNX files reach the final image, which runs without torch.

FROM python:3.11-slim AS model
WORKDIR /src
COPY scripts/build-model scripts/build_model.py scripts/model_manifest.py scripts/
# CPU wheel of torch: the default PyPI wheel for Linux pulls several GB of CUDA libraries.
ENV ARBOR_TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
RUN bash scripts/build-model

FROM python:3.11-slim AS runtime
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    ARBOR_MODEL_DIR=/app/models \
    ARBOR_DATA_DIR=/data \
    ARBOR_HOST=0.0.0.0 \
    PORT=8000
RUN useradd --create-home --uid 10001 arbor && mkdir -p /data /app && chown arbor:arbor /data
# OCR (rapidocr-onnxruntime) imports OpenCV, whose wheel links libGL and GLib.
RUN apt-get update && apt-get install -y --no-install-recommends libgl1 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
RUN pip install --upgrade pip && pip install .
COPY --from=model /src/models ./models
USER arbor
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/readyz').status == 200 else 1)"
# `arbor serve` waits for DATABASE_URL, applies the migrations, then serves.
CMD ["arbor", "serve"]
