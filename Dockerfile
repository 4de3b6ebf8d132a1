FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY qgs_worker ./qgs_worker
RUN pip install --no-cache-dir .
USER nobody
ENTRYPOINT ["qgs"]
