"""The HTTP service: the page, ``POST /api/score``, ``GET /api/health``.

A request's fields are the command line's scoring options
(:mod:`corefud_scorer.jobs.options`); the library scores the uploaded files
in a process pool under the names the client gave them, and the answer is
the JSON the command line prints for the same files and options (the same
renderer, :mod:`corefud_scorer.render.json_report`), or the one-line refusal.
Each request is scored in a process of its own within the server's time
and memory limits, a few at a time (:mod:`.workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
from contextlib import asynccontextmanager
from importlib import resources

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .. import __version__
from ..formats.readers import sniff_format
from ..formats.readers.limits import in_units
from ..jobs.confined import REQUEST_BUDGET, Budget, Overrun
from ..jobs.options import CHOICES, COUNT, FIELDS, FLAG
from ..jobs.parallel import available_cores
from .options import OptionError, describe, read_form
from .place import where
from .runner import score_request
from .upload import Disconnected, UploadError, drain, receive_upload
from .workers import QUEUE_PER_WORKER, Busy, Workers

# The page's icon: a small SVG, so that browsers asking for /favicon.ico get one.
FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
           '<rect width="32" height="32" rx="6" fill="#2a5db0"/>'
           '<circle cx="11" cy="16" r="6" fill="none" stroke="#fff" stroke-width="3"/>'
           '<circle cx="21" cy="16" r="6" fill="none" stroke="#fff" stroke-width="3"/></svg>')
# The first bytes of a key the page sends to learn its format.
SNIFFED_BYTES = 8192


def error(status: int, message: str, files=(), headers=None) -> JSONResponse:
    body = {"error": message}
    if files:
        body["files"] = [{"field": f.field, "index": f.index, "name": f.name} for f in files]
    return JSONResponse(body, status_code=status, headers=headers)


def _request_body_schema() -> dict:
    properties = {
        "key": {"type": "string", "format": "binary", "description": "the key (gold) file, any format the scorer reads"},
        "responses": {"type": "array", "items": {"type": "string", "format": "binary"},
                      "description": "one or more response (system) files, the first the baseline of the tests"},
    }
    for f in FIELDS.values():
        item = {"type": "string"}
        if f.choices:
            item["enum"] = list(f.choices)
        if f.kind == FLAG:
            schema = {"type": "boolean"}
        elif f.kind == CHOICES:
            schema = {"type": "array", "items": item}
        elif f.kind == COUNT:
            schema = {"type": "string"}
        else:
            schema = dict(item)
        schema["description"] = f"{f.flag}: {f.help}" + (f" (default {f.default})" if f.default is not None else "")
        properties[f.name] = schema
    return {"required": True, "content": {"multipart/form-data": {"schema": {
        "type": "object", "required": ["key", "responses"], "properties": properties}}}}


def create_app(max_upload_mb: float = 200, tmp_dir: str | None = None, workers: int | None = None,
               host: str = "127.0.0.1", port: int = 8000, budget: Budget = REQUEST_BUDGET,
               queue: int | None = None) -> FastAPI:
    """The application; ``tmp_dir`` is where uploads are kept while scored
    (the system's temporary folder by default); ``budget``: what one request
    may take; ``queue``: how many requests may wait for a worker."""
    spec = describe()
    limit = int(max_upload_mb * 2 ** 20)
    workers = workers or available_cores()
    queue = QUEUE_PER_WORKER * workers if queue is None else queue
    listening = where(host, port)
    pool = Workers(workers, queue, budget)
    limits = {"max_upload_mb": max_upload_mb, "max_seconds": budget.seconds, "max_memory_mb": budget.memory_mb,
              "workers": workers, "queue": queue, **{f"max_{name}": value for name, value in in_units().items()}}

    @asynccontextmanager
    async def lifespan(app):
        pool.start()
        try:
            yield
        finally:
            pool.stop()

    # /docs is a page of the package's own: the stock one loads its scripts from elsewhere.
    app = FastAPI(title="corefud-scorer", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Coreference scores for an uploaded key and responses: the JSON of "
                  "`corefud-scorer KEY RESPONSE... --output json` with the same options.")
    static = resources.files(__package__) / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.state.workers = pool

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page():
        html = (static / "index.html").read_text(encoding="utf-8")
        return html.replace("{{listening}}", listening["note"]).replace("{{version}}", __version__)

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    async def docs():
        return (static / "docs.html").read_text(encoding="utf-8")

    @app.get("/api/health")
    async def health() -> dict:
        """For a process monitor: answers while requests are scored, and says
        how many are being scored and how many wait."""
        return {"status": "ok", "version": __version__, **pool.status}

    @app.get("/api/options")
    async def options() -> dict:
        """The option fields this scorer accepts (the command line's scoring
        options), what each format and measure allows, the limits on a
        request (``limits``: upload, time, memory, the reading limits, workers
        and queue) and where the server listens."""
        return {**spec, "max_upload_mb": max_upload_mb, "limits": limits, "listening": listening,
                "version": __version__}

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon():
        return Response(FAVICON, media_type="image/svg+xml")

    @app.post("/api/format")
    async def detect(request: Request) -> dict:
        """The format the first bytes of a key file (the request's body,
        the first few KB are read) say, as the scorer would tell it."""
        head = b""
        async for chunk in request.stream():
            head += chunk
            if len(head) >= SNIFFED_BYTES:
                break
        return {"format": sniff_format(head[:SNIFFED_BYTES].decode("utf-8", errors="replace").lstrip("\ufeff"))}

    @app.post("/api/score", openapi_extra={"requestBody": _request_body_schema()},
              responses={200: {"description": "the JSON of `corefud-scorer ... --output json`"},
                         400: {"description": "a bad file: {\"error\": \"FILE:LINE: ...\", \"files\": [...]}"},
                         413: {"description": "the upload is past --max-upload-mb, or scoring it past "
                                              "--max-seconds or --max-memory-mb"},
                         422: {"description": "a bad option: {\"error\": \"...\"}"},
                         503: {"description": "every worker and queue place is taken; Retry-After says when "
                                              "to try again"}})
    async def score(request: Request):
        """Score the uploaded responses against the uploaded key."""
        try:
            with pool.admitted():
                return await _scored(request)
        except Busy as busy:
            await drain(request.receive)
            return error(503, f"the server is busy ({workers} scoring, {queue} waiting): try again in "
                         f"{busy.retry_after} s", headers={"Retry-After": str(busy.retry_after)})
        except asyncio.CancelledError:
            # The server is stopping: the request's process is killed already.
            return error(503, "the server is stopping: try again later", headers={"Retry-After": "10"})

    async def _scored(request: Request):
        try:
            received = await receive_upload(request.scope["headers"], request.receive, limit, tmp_dir)
        except UploadError as err:
            return error(err.status, err.message)
        except Disconnected:
            return Response(status_code=400)  # nobody reads it
        try:
            keys = [f for f in received.files if f.field == "key"]
            responses = [f for f in received.files if f.field == "responses"]
            if not keys:
                return error(400, "no key file: send it in the field 'key'")
            if not responses:
                return error(400, "no response file: send one or more in the field 'responses'")
            try:
                asked = read_form(received.form)
            except OptionError as err:
                return error(422, str(err))
            try:
                answer = await _run(request, keys[0], responses, asked)
            except Overrun as err:
                if err.kind == "died":
                    return error(500, f"the scoring process {err}; try again")
                return error(413, f"scoring the files {err} (this server's limits per request: "
                             f"{budget.describe()}; --max-seconds, --max-memory-mb)")
            if answer is None:
                return Response(status_code=400)  # the client left; nobody reads it
            if answer.status == 200:
                return Response(answer.text, media_type="application/json")
            return error(answer.status, answer.text, answer.files)
        finally:
            received.remove()

    async def _run(request: Request, key, responses, asked):
        """The worker's answer, or None when the client disconnects first
        (its process is killed)."""
        work = asyncio.ensure_future(pool.run(score_request, key, responses, asked))
        # The body is read: the next message is the client's disconnect.
        watcher = asyncio.ensure_future(request.receive())
        try:
            done, _ = await asyncio.wait({work, watcher}, return_when=asyncio.FIRST_COMPLETED)
            if work not in done and watcher.result()["type"] == "http.disconnect":
                work.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await work
                return None
            return await work
        finally:
            watcher.cancel()
            if not work.done():
                work.cancel()

    return app
