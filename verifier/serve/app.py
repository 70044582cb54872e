"""The web application of ``verifier serve``: one page to write a scenario and decide it.

``GET /`` shows the page: a blank scenario of a game (``?game=``), a bundled example
(``?example=yugioh/chain-lock``), or a shared question (``?s=CODE&q=CLAIM&why=1``: the
scenario compressed into the link, decided again as it is opened). ``POST /`` decides the
form's scenario and the ask box's claim and shows the page with the results, so the page
works without a script; ``POST /api/check`` does the same with JSON. ``GET /healthz`` says
how many runs are going and waiting.

What a stranger sends is bounded before it is read: a body of at most :data:`MAX_BODY`
bytes, a scenario of at most :data:`~verifier.serve.permalink.MAX_TEXT` characters, a claim
of at most :data:`MAX_CLAIM`. A scenario names rule systems and card libraries only by
name, never a file, and nothing is written; runs go to the worker pool
(:mod:`verifier.serve.worker`), which answers "busy" when it is full.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, replace
from importlib import resources
from typing import TYPE_CHECKING, Any

import jinja2
import markupsafe
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from verifier.serve import catalog, permalink
from verifier.serve.worker import SCENARIO_NAME, Job, Outcome, Pool, Problem, RunLimits
from verifier.version import __version__

if TYPE_CHECKING:
    from starlette.types import ASGIApp

__all__ = ["MAX_BODY", "MAX_CLAIM", "Settings", "create_app", "serve"]

MAX_BODY = 256 * 1024
"""The largest request body, in bytes; a larger one is answered 413 unread."""
MAX_CLAIM = 2000
"""The longest claim the ask box takes, in characters."""
MAX_LINE = 64 * 1024
"""The longest request line and headers (a link carries up to
:data:`~verifier.serve.permalink.MAX_CODE` characters of scenario)."""

HEADERS = {
    # The page loads its own styles and script and nothing else, and is framed by nobody.
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    # A link carries its scenario: it is not sent on to another site.
    "Referrer-Policy": "no-referrer",
}


@dataclass(frozen=True, slots=True)
class Settings:
    """Where to listen, how many runs at once and waiting, and the limits of each run."""

    host: str = "127.0.0.1"
    port: int = 8765
    workers: int = 2
    waiting: int = 16
    limits: RunLimits = field(default_factory=RunLimits)


class _TooLarge(Exception):
    pass


class _BadRequest(Exception):
    pass


def _static(name: str) -> str:
    return resources.files("verifier.serve").joinpath("static", name).read_text("utf-8")


def _report_css() -> str:
    from verifier.report.html import stylesheet

    return stylesheet()


_environment = jinja2.Environment(
    loader=jinja2.PackageLoader("verifier.serve", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


@dataclass(frozen=True, slots=True)
class _View:
    """What the page shows: the scenario's text, the claim asked, the game, the example
    opened, the run's outcome (None before a run), and a notice (busy, a bad link)."""

    text: str
    claim: str = ""
    why: bool = False
    game: str = field(default_factory=catalog.default_game)
    example: str = ""
    outcome: Outcome | None = None
    notice: Problem | None = None


def _link(view: _View) -> str | None:
    """The page's address for this question (relative), or None when it is too long."""
    code = permalink.encode(view.text)
    if len(code) > permalink.MAX_CODE:
        return None
    query: dict[str, str] = {"s": code}
    if view.claim:
        query["q"] = view.claim
        if view.why:
            query["why"] = "1"
    return "./?" + urllib.parse.urlencode(query)


def _tally(outcome: Outcome) -> str:
    claims = outcome.claims
    wrong = sum(1 for c in claims if not c.as_expected and c.verdict != "unknown")
    unknown = sum(1 for c in claims if c.verdict == "unknown")
    parts = [f"{len(claims)} claim(s): {len(claims) - wrong - unknown} as expected"]
    if wrong:
        parts.append(f"{wrong} not as expected")
    if unknown:
        parts.append(f"{unknown} unknown")
    return ", ".join(parts)


def _page(view: _View, status: int = 200) -> HTMLResponse:
    outcome = view.outcome
    problem = outcome.problem if outcome is not None else None
    at = problem.line if problem is not None and problem.path == SCENARIO_NAME else None
    lines = max(1, view.text.count("\n") + (0 if view.text.endswith("\n") else 1))
    ran = outcome is not None and problem is None
    html = _environment.get_template("page.html.j2").render(
        version=__version__,
        view=view,
        games=[(g, catalog.title(g)) for g in catalog.games()],
        examples=[(g, catalog.title(g), catalog.examples(g)) for g in catalog.games()],
        lines=lines,
        rows=min(max(lines + 1, 14), 40),
        error_line=at,
        problem=problem,
        ask_problem=outcome.ask_problem if outcome is not None else None,
        results=markupsafe.Markup(outcome.html) if ran and outcome is not None else "",
        tally=_tally(outcome) if ran and outcome is not None else "",
        model=outcome.model if outcome is not None else "",
        link=_link(view) if outcome is not None else None,
        max_text=permalink.MAX_TEXT,
        max_claim=MAX_CLAIM,
    )
    return HTMLResponse(html, status, headers=HEADERS)


def _status(outcome: Outcome) -> int:
    problem = outcome.problem
    if problem is None or problem.kind == "limit":
        return 200
    return 500 if problem.kind == "internal" else 422


def _busy(pool: Pool) -> Problem:
    return Problem(
        "busy",
        f"error: the server is busy: {pool.capacity} runs are going or waiting; "
        "try again in a moment",
    )


def _refusal(message: str) -> Problem:
    return Problem("input", f"error: {message}")


def _job(fields: Mapping[str, str]) -> Job:
    """The run a form or a JSON body asks for; :class:`_BadRequest` when it is out of bounds."""
    text = fields.get("scenario", "")
    why_claim = fields.get("why", "")
    claim = why_claim or fields.get("claim", "")
    if len(text) > permalink.MAX_TEXT:
        raise _BadRequest(f"the scenario is longer than {permalink.MAX_TEXT:,} characters")
    if len(claim) > MAX_CLAIM:
        raise _BadRequest(f"the claim is longer than {MAX_CLAIM:,} characters")
    if not text.strip():
        raise _BadRequest("the scenario is empty: pick an example or a game to start from")
    return Job(text, claim.strip(), bool(why_claim))


async def _body(request: Request) -> bytes:
    """The request's body, refused past :data:`MAX_BODY` bytes before more is read."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > MAX_BODY:
                raise _TooLarge
        except ValueError:
            raise _BadRequest("the request's Content-Length is not a number") from None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise _TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def _form(body: bytes) -> dict[str, str]:
    try:
        text = body.decode("utf-8")
        pairs = urllib.parse.parse_qsl(text, keep_blank_values=True, max_num_fields=16)
    except (UnicodeDecodeError, ValueError):
        raise _BadRequest("the form is not URL-encoded UTF-8 text") from None
    return dict(pairs)


def _too_large_text() -> str:
    return f"the request is larger than {MAX_BODY // 1024} KiB"


def create_app(pool: Pool) -> ASGIApp:
    """The application, deciding its runs in ``pool`` (started and stopped with it)."""
    report_css, page_css, script = _report_css(), _static("serve.css"), _static("serve.js")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pool.start()
        try:
            yield
        finally:
            pool.close()

    async def decided(view: _View, job: Job) -> tuple[_View, int]:
        outcome = await pool.run(job)
        if outcome is None:
            return replace(view, notice=_busy(pool)), 503
        game = outcome.game if outcome.game in catalog.games() else view.game
        return replace(view, outcome=outcome, game=game), _status(outcome)

    async def page(request: Request) -> Response:
        if request.method == "POST":
            return await posted(request)
        params = request.query_params
        game = params.get("game", "")
        if game not in catalog.games():
            game = catalog.default_game()
        name = params.get("example", "")
        code = params.get("s")
        if code is not None:
            claim, why = params.get("q", "")[:MAX_CLAIM], params.get("why") == "1"
            try:
                text = permalink.decode(code)
            except permalink.LinkError as exc:
                notice = _refusal(str(exc))
                return _page(_View(catalog.blank(game), game=game, notice=notice), 400)
            view = _View(text, claim, why, game=game)
            if not text.strip():
                return _page(replace(view, notice=_refusal("the link's scenario is empty")), 400)
            view, status = await decided(view, Job(text, claim.strip(), why and bool(claim)))
            return _page(view, status)
        if name:
            found = catalog.example(name)
            if found is None:
                notice = _refusal(f"no bundled example {name[:80]!r}")
                return _page(_View(catalog.blank(game), game=game, notice=notice), 404)
            return _page(_View(found.text, game=found.game, example=found.name))
        return _page(_View(catalog.blank(game), game=game))

    async def posted(request: Request) -> Response:
        try:
            fields = _form(await _body(request))
        except _TooLarge:
            view = _View("", notice=_refusal(_too_large_text()))
            return _page(view, 413)
        except _BadRequest as exc:
            return _page(_View("", notice=_refusal(str(exc))), 400)
        text = fields.get("scenario", "")[: permalink.MAX_TEXT + 1]
        game = fields.get("game", "")
        view = _View(
            text,
            (fields.get("why") or fields.get("claim", ""))[: MAX_CLAIM + 1],
            bool(fields.get("why")),
            game=game if game in catalog.games() else catalog.default_game(),
            example=fields.get("example", "")[:200],
        )
        try:
            job = _job(fields)
        except _BadRequest as exc:
            return _page(replace(view, notice=_refusal(str(exc))), 400)
        view, status = await decided(view, job)
        return _page(view, status)

    async def api_check(request: Request) -> Response:
        try:
            body = await _body(request)
            try:
                data = json.loads(body)
            except (ValueError, RecursionError):
                raise _BadRequest("the body is not JSON") from None
            if not isinstance(data, dict):
                raise _BadRequest('the body is a JSON object: {"scenario": "...", "claim": "..."}')
            fields = {
                "scenario": data.get("scenario"),
                "claim": data.get("claim", ""),
                "why": data.get("claim", "") if data.get("why") is True else "",
            }
            if not all(isinstance(v, str) for v in fields.values()):
                raise _BadRequest("scenario and claim are strings, why is true or false")
            job = _job(fields)
        except _TooLarge:
            return _json({"error": _plain(_refusal(_too_large_text()))}, 413)
        except _BadRequest as exc:
            return _json({"error": _plain(_refusal(str(exc)))}, 400)
        outcome = await pool.run(job)
        if outcome is None:
            return _json({"error": _plain(_busy(pool))}, 503, {"Retry-After": "2"})
        view = _View(job.text, job.claim, job.why)
        answer = {
            "claims": [asdict(c) for c in outcome.claims],
            "asked": None if outcome.asked is None else asdict(outcome.asked),
            "error": _plain(outcome.problem),
            "ask_error": _plain(outcome.ask_problem),
            "model": outcome.model,
            "link": _link(view),
            "html": outcome.html,
        }
        return _json(answer, _status(outcome))

    async def no_icon(request: Request) -> Response:
        return Response(None, 204, HEADERS)

    async def health(request: Request) -> Response:
        return _json({"ok": True, **pool.figures()}, 200)

    def asset(name: str, body: str, media: str) -> Route:
        async def endpoint(request: Request) -> Response:
            headers = {**HEADERS, "Cache-Control": "public, max-age=3600"}
            return Response(body, 200, headers, media)

        return Route(f"/static/{name}", endpoint)

    routes = [
        Route("/", page, methods=["GET", "POST"]),
        Route("/api/check", api_check, methods=["POST"]),
        Route("/healthz", health),
        Route("/favicon.ico", no_icon),
        asset("report.css", report_css, "text/css; charset=utf-8"),
        asset("serve.css", page_css, "text/css; charset=utf-8"),
        asset("serve.js", script, "text/javascript; charset=utf-8"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    return _Guard(app)


class _Guard:
    """Outermost: a request that Starlette answers by raising (a bug) gets a one-line page,
    never a traceback; each response carries :data:`HEADERS`."""

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        started = False

        async def sending(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self._app(scope, receive, sending)
        except Exception as exc:
            if started:
                raise
            message = f"internal error: {type(exc).__name__}"
            response = Response(message + "\n", 500, HEADERS, "text/plain; charset=utf-8")
            await response(scope, receive, send)


def _plain(problem: Problem | None) -> dict[str, Any] | None:
    return None if problem is None else asdict(problem)


def _json(data: Mapping[str, Any], status: int, extra: Mapping[str, str] | None = None) -> Response:
    headers = {**HEADERS, **(extra or {})}
    return JSONResponse(dict(data), status, headers)


def serve(settings: Settings) -> None:
    """Listen on ``settings.host``:``settings.port`` until interrupted."""
    import uvicorn

    pool = Pool(settings.workers, settings.waiting, settings.limits)
    config = uvicorn.Config(
        create_app(pool),
        host=settings.host,
        port=settings.port,
        http="h11",
        h11_max_incomplete_event_size=MAX_LINE,
        # Connections beyond this are answered 503 by the server itself.
        limit_concurrency=max(64, 4 * pool.capacity),
        timeout_keep_alive=5,
        server_header=False,
        log_level="info",
        access_log=False,
    )
    uvicorn.Server(config).run()
