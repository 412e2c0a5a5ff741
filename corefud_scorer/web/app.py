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


# What ``POST /api/score`` may answer, as the schema states it.
SCORE_RESPONSES = {200: {"description": "the JSON of `corefud-scorer ... --output json`"},
                   400: {"description": "a bad file: {\"error\": \"FILE:LINE: ...\", \"files\": [...]}"},
                   413: {"description": "the upload is past --max-upload-mb, or scoring it past "
                                        "--max-seconds or --max-memory-mb"},
                   422: {"description": "a bad option: {\"error\": \"...\"}"},
                   503: {"description": "every worker and queue place is taken; Retry-After says when "
                                        "to try again"}}


class Service:
    """The service's handlers and what they read: the upload limit, the
    uploads' folder, the pool of workers and its budget, where the server
    listens and what ``/api/options`` describes."""

    def __init__(self, max_upload_mb: float, tmp_dir: str | None, pool: Workers, budget: Budget, listening: dict):
        self.max_upload_mb, self.tmp_dir, self.pool, self.budget = max_upload_mb, tmp_dir, pool, budget
        self.listening = listening
        self.limit = int(max_upload_mb * 2 ** 20)
        self.spec = describe()
        self.limits = {"max_upload_mb": max_upload_mb, "max_seconds": budget.seconds,
                       "max_memory_mb": budget.memory_mb, "workers": pool.workers, "queue": pool.queue,
                       **{f"max_{name}": value for name, value in in_units().items()}}
        self.static = resources.files(__package__) / "static"

    async def page(self):
        html = (self.static / "index.html").read_text(encoding="utf-8")
        return html.replace("{{listening}}", self.listening["note"]).replace("{{version}}", __version__)

    async def docs(self):
        return (self.static / "docs.html").read_text(encoding="utf-8")

    async def health(self) -> dict:
        """For a process monitor: answers while requests are scored, and says
        how many are being scored and how many wait."""
        return {"status": "ok", "version": __version__, **self.pool.status}

    async def options(self) -> dict:
        """The option fields this scorer accepts (the command line's scoring
        options), what each format and measure allows, the limits on a
        request (``limits``: upload, time, memory, the reading limits, workers
        and queue) and where the server listens."""
        return {**self.spec, "max_upload_mb": self.max_upload_mb, "limits": self.limits,
                "listening": self.listening, "version": __version__}

    async def favicon(self):
        return Response(FAVICON, media_type="image/svg+xml")

    async def detect(self, request: Request) -> dict:
        """The format the first bytes of a key file (the request's body,
        the first few KB are read) say, as the scorer would tell it."""
        head = b""
        async for chunk in request.stream():
            head += chunk
            if len(head) >= SNIFFED_BYTES:
                break
        return {"format": sniff_format(head[:SNIFFED_BYTES].decode("utf-8", errors="replace").lstrip("\ufeff"))}

    async def score(self, request: Request):
        """Score the uploaded responses against the uploaded key."""
        try:
            with self.pool.admitted():
                return await self._scored(request)
        except Busy as busy:
            await drain(request.receive)
            return error(503, f"the server is busy ({self.pool.workers} scoring, {self.pool.queue} waiting): "
                         f"try again in {busy.retry_after} s", headers={"Retry-After": str(busy.retry_after)})
        except asyncio.CancelledError:
            # The server is stopping: the request's process is killed already.
            return error(503, "the server is stopping: try again later", headers={"Retry-After": "10"})

    async def _scored(self, request: Request):
        try:
            received = await receive_upload(request.scope["headers"], request.receive, self.limit, self.tmp_dir)
        except UploadError as err:
            return error(err.status, err.message)
        except Disconnected:
            return Response(status_code=400)  # nobody reads it
        try:
            return await self._answer(request, received)
        finally:
            received.remove()

    async def _answer(self, request: Request, received):
        """The answer to an upload received whole: a refusal of its files or
        options, or the worker's answer."""
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
            answer = await self._run(request, keys[0], responses, asked)
        except Overrun as err:
            if err.kind == "died":
                return error(500, f"the scoring process {err}; try again")
            return error(413, f"scoring the files {err} (this server's limits per request: "
                         f"{self.budget.describe()}; --max-seconds, --max-memory-mb)")
        if answer is None:
            return Response(status_code=400)  # the client left; nobody reads it
        if answer.status == 200:
            return Response(answer.text, media_type="application/json")
        return error(answer.status, answer.text, answer.files)

    async def _run(self, request: Request, key, responses, asked):
        """The worker's answer, or None when the client disconnects first
        (its process is killed)."""
        work = asyncio.ensure_future(self.pool.run(score_request, key, responses, asked))
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


def _routes(app: FastAPI, service: Service) -> None:
    """Every route of the service, in one place."""
    app.get("/", response_class=HTMLResponse, include_in_schema=False)(service.page)
    app.get("/docs", response_class=HTMLResponse, include_in_schema=False)(service.docs)
    app.get("/api/health")(service.health)
    app.get("/api/options")(service.options)
    app.get("/favicon.ico", include_in_schema=False)(service.favicon)
    app.post("/api/format")(service.detect)
    app.post("/api/score", openapi_extra={"requestBody": _request_body_schema()},
             responses=SCORE_RESPONSES)(service.score)


@asynccontextmanager
async def _lifespan(app: FastAPI):
    """The workers run while the application does."""
    app.state.workers.start()
    try:
        yield
    finally:
        app.state.workers.stop()


def create_app(max_upload_mb: float = 200, tmp_dir: str | None = None, workers: int | None = None,
               host: str = "127.0.0.1", port: int = 8000, budget: Budget = REQUEST_BUDGET,
               queue: int | None = None) -> FastAPI:
    """The application; ``tmp_dir`` is where uploads are kept while scored
    (the system's temporary folder by default); ``budget``: what one request
    may take; ``queue``: how many requests may wait for a worker."""
    workers = workers or available_cores()
    queue = QUEUE_PER_WORKER * workers if queue is None else queue
    listening = where(host, port)
    service = Service(max_upload_mb, tmp_dir, Workers(workers, queue, budget), budget, listening)
    # /docs is a page of the package's own: the stock one loads its scripts from elsewhere.
    app = FastAPI(title="corefud-scorer", version=__version__, lifespan=_lifespan, docs_url=None, redoc_url=None,
                  description="Coreference scores for an uploaded key and responses: the JSON of "
                  "`corefud-scorer KEY RESPONSE... --output json` with the same options.")
    app.mount("/static", StaticFiles(directory=str(service.static)), name="static")
    app.state.workers = service.pool
    _routes(app, service)
    return app
