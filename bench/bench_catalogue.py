"""What the pages' languages cost: the size of each catalogue the page loads before it
renders (``GET /api/catalogue/{lang}``), the time to build it once from the compiled
``web.mo`` (the server keeps it), and the time to answer it afterwards, in process.

    PYTHONPATH=src python bench/bench_catalogue.py
"""

from __future__ import annotations

import gzip
import json
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from rummoli import i18n
from rummoli.web.app import create_app
from rummoli.web.catalogue import catalogue


def main() -> None:
    for lang in i18n.languages():
        catalogue.cache_clear()
        start = time.perf_counter()
        data = catalogue(lang)
        built = time.perf_counter() - start
        body = json.dumps(data, ensure_ascii=False).encode()
        print(
            f"{lang}: {len(data['messages'])} messages, {len(body) / 1024:.1f} KiB JSON "
            f"({len(gzip.compress(body)) / 1024:.1f} KiB gzipped), built in {built * 1000:.1f} ms"
        )
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'b.db'}", allowed_hosts=["testserver"])
        with TestClient(app) as client:
            for lang in ("fr", "ru"):
                client.get(f"/api/catalogue/{lang}")
                times = []
                for _ in range(200):
                    start = time.perf_counter()
                    client.get(f"/api/catalogue/{lang}")
                    times.append(time.perf_counter() - start)
                times.sort()
                print(
                    f"GET /api/catalogue/{lang}: median {statistics.median(times) * 1000:.2f} ms, "
                    f"p99 {times[int(len(times) * 0.99)] * 1000:.2f} ms (200 requests, in process)"
                )


if __name__ == "__main__":
    main()
