"""The HTTP service: the page, ``POST /api/score``, ``GET /api/health``.

Scoring is the command line itself: the request's fields become its flags,
it runs in a process pool on the uploaded files, and its JSON (or its
one-line error) is the answer, with the stored files' paths replaced by the
names the client gave them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from importlib import resources

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .. import __version__
from ..interrupts import ignore_in_worker
from ..parallel import available_cores
from .options import OptionError, Spec, cli_spec, to_argv
from .place import where
from .runner import concerned, error_line, names_argv, rename, run_cli
from .upload import Disconnected, UploadError, receive_upload

# After this many calls a worker is replaced, whatever it may have kept.
TASKS_PER_WORKER = 200


def error(status: int, message: str, files=()) -> JSONResponse:
    body = {"error": message}
    if files:
        body["files"] = [{"field": f.field, "index": f.index, "name": f.name} for f in files]
    return JSONResponse(body, status_code=status)


def _request_body_schema(spec: Spec) -> dict:
    properties = {
        "key": {"type": "string", "format": "binary", "description": "the key (gold) file, any format the scorer reads"},
        "responses": {"type": "array", "items": {"type": "string", "format": "binary"},
                      "description": "one or more response (system) files"
                      + ("" if spec.max_responses is None else f"; this scorer takes at most {spec.max_responses}")},
    }
    for f in spec.fields.values():
        item = {"type": "string"}
        if f.choices:
            item["enum"] = f.choices
        if f.kind == "flag":
            schema = {"type": "boolean"}
        elif f.kind == "list":
            schema = {"type": "array", "items": item}
        else:
            schema = dict(item)
        schema["description"] = f"{f.flag}: {f.help}"
        properties[f.name] = schema
    return {"required": True, "content": {"multipart/form-data": {"schema": {
        "type": "object", "required": ["key", "responses"], "properties": properties}}}}


def create_app(max_upload_mb: float = 200, tmp_dir: str | None = None, workers: int | None = None,
               host: str = "127.0.0.1", port: int = 8000) -> FastAPI:
    """The application; ``tmp_dir`` is where uploads are kept while scored
    (the system's temporary folder by default)."""
    spec = cli_spec()
    limit = int(max_upload_mb * 2 ** 20)
    workers = workers or available_cores()
    listening = where(host, port)
    state: dict = {}

    def new_pool():
        # spawn: the server's threads are never forked
        # Interrupts are the server's: a worker left alone prints a traceback.
        return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                   max_tasks_per_child=TASKS_PER_WORKER, initializer=ignore_in_worker)

    @asynccontextmanager
    async def lifespan(app):
        state["pool"] = new_pool()
        try:
            yield
        finally:
            state["pool"].shutdown(wait=True, cancel_futures=True)

    # /docs is a page of the package's own: the stock one loads its scripts from elsewhere.
    app = FastAPI(title="corefud-scorer", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Coreference scores for an uploaded key and responses: the JSON of "
                  "`corefud-scorer KEY RESPONSE... --output json` with the same options.")
    static = resources.files(__package__) / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def page():
        html = (static / "index.html").read_text(encoding="utf-8")
        return html.replace("{{listening}}", listening["note"]).replace("{{version}}", __version__)

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    async def docs():
        return (static / "docs.html").read_text(encoding="utf-8")

    @app.get("/api/health")
    async def health() -> dict:
        """For a process monitor: answers while scoring runs in the pool."""
        return {"status": "ok", "version": __version__, "workers": workers}

    @app.get("/api/options")
    async def options() -> dict:
        """The option fields this scorer accepts (read off its command line),
        the upload limit and where the server listens."""
        return {**spec.to_dict(), "max_upload_mb": max_upload_mb, "listening": listening,
                "version": __version__}

    @app.post("/api/score", openapi_extra={"requestBody": _request_body_schema(spec)},
              responses={200: {"description": "the JSON of `corefud-scorer ... --output json`"},
                         400: {"description": "a bad file: {\"error\": \"FILE:LINE: ...\", \"files\": [...]}"},
                         413: {"description": "the upload is past --max-upload-mb"},
                         422: {"description": "a bad option: {\"error\": \"...\"}"}})
    async def score(request: Request):
        """Score the uploaded responses against the uploaded key."""
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
            if spec.max_responses is not None and len(responses) > spec.max_responses:
                return error(422, f"this scorer takes {spec.max_responses} response file at a time, "
                             f"{len(responses)} were sent")
            try:
                flags = to_argv(spec, received.form)
            except OptionError as err:
                return error(422, str(err))
            argv = [keys[0].path, *(f.path for f in responses), *flags, *names_argv(responses, spec.known_flags),
                    "--output", "json", *spec.server_flags]
            try:
                outcome = await _run(request, argv)
            except BrokenProcessPool:
                return error(500, "a scoring process died (out of memory?); the pool was restarted, try again")
            if outcome is None:
                return Response(status_code=400)  # the client left; nobody reads it
            if outcome.code == 0:
                return Response(rename(outcome.stdout, received.files, in_json=True),
                                media_type="application/json")
            message = error_line(outcome.stderr)
            if outcome.code != 2:  # 2 is bad input; anything else is the scorer's failure
                return error(500, f"internal error: {rename(message, received.files)}")
            named = concerned(message, received.files)
            return error(400 if named else 422, rename(message, received.files), named)
        finally:
            received.remove()

    async def _run(request: Request, argv: list[str]):
        """The CLI's outcome, or None when the client disconnects first."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(state["pool"], run_cli, argv)
        # The body is read: the next message is the client's disconnect.
        watcher = asyncio.ensure_future(request.receive())
        try:
            done, _ = await asyncio.wait({future, watcher}, return_when=asyncio.FIRST_COMPLETED)
            if future not in done and watcher.result()["type"] == "http.disconnect":
                future.cancel()
                return None
            return await future
        except BrokenProcessPool:
            state["pool"] = new_pool()
            raise
        finally:
            watcher.cancel()

    return app
