"""What every route shares: the tables, the limits, the page renderer and the public address for links.

Why links come from ``public_url``: a link built from the request's ``Host``
header lets anyone who can reach the server make it hand out links to another
site. The address is configured (``spots serve --public-url``); without one
the links are relative to the page, which is always right for the browser.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from fastapi import Request, WebSocket
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from .. import i18n
from .accounts.service import Accounts, account_of
from .config import Limits
from .games import GameTemplates
from .guard import Buckets, Refused, script_nonce
from .pages.words import js_words
from .tables.hub import Hub
from .tables.replays import Replays
from .talk.service import PHRASES

HERE = Path(__file__).parent


def request_lang(request: Request | WebSocket) -> str:
    """The page's language: ``?lang=`` (the switcher), else the remembered cookie, else Accept-Language."""
    for value in (request.query_params.get("lang"), request.cookies.get("lang")):
        code = i18n.normalize(value)
        if code:
            return code
    return i18n.negotiate(request.headers.get("accept-language"))


def tr_of(request: Request | WebSocket) -> Any:
    return i18n.translator(request_lang(request)).gettext


def page_templates() -> Jinja2Templates:
    """The app's templates, and each hosted game's own (``games/<game>/<file>``, from the game's folder)."""
    templates = Jinja2Templates(directory=HERE / "templates")
    templates.env.loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(HERE / "templates"), GameTemplates()])
    templates.env.globals["phrases"] = PHRASES  # table talk's quick phrases (talk.html)
    return templates


@dataclass
class Context:
    """The app's shared parts, handed to each group of routes."""

    hub: Hub
    limits: Limits
    public_url: str = ""  # e.g. https://spots.example.org (no trailing slash); "" = links relative to the page
    vapid_public: str = ""  # the Web Push public key pages subscribe with ("" : the host configured none)
    templates: Jinja2Templates = field(default_factory=page_templates)
    replays: Replays = field(default_factory=Replays)
    hints: Buckets = field(init=False)
    hints_server: Buckets = field(init=False)
    hint_cache: dict[tuple[str, int, str], list[dict[str, Any]]] = field(default_factory=dict)
    accounts: Accounts | None = None  # sign-in and seats of accounts (set by create_app)

    def __post_init__(self) -> None:
        self.hints = Buckets(self.limits.hints_per_minute / 60, 3)
        self.hints_server = Buckets(self.limits.hints_server_per_minute / 60, 10, size=1)
        self.templates.env.globals["chat_length"] = self.limits.chat_length

    def link(self, path: str) -> str:
        """An absolute link when the public address is configured, else a path."""
        return self.public_url + path

    def page(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        """A page in the visitor's language, with the language switcher's links."""
        lang = request_lang(request)
        tr = i18n.translator(lang)
        here = request.url.remove_query_params("lang")
        switch = [{"code": code, "name": name, "url": f"{here.path}?{here.include_query_params(lang=code).query}",
                   "current": code == lang} for code, name in i18n.LANGUAGES.items()]
        response = self.templates.TemplateResponse(request, template, {
            **context, "_": tr.gettext, "ngettext": tr.ngettext, "lang": lang, "languages": switch,
            "words": js_words(tr), "csp_nonce": script_nonce(request), "me": account_of(request),
        }, status_code=status)
        if i18n.normalize(request.query_params.get("lang")):  # the switcher: remember the choice
            response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
        return response

    def form_route(self, handler: Callable[..., Awaitable[Response]]) -> Callable[..., Awaitable[Response]]:
        """A route that a page's form posts to: a refusal is shown as a page to the person (a program sending JSON
        still gets the JSON error)."""
        @functools.wraps(handler)
        async def route(request: Request, **given: Any) -> Response:
            try:
                return await handler(request, **given)
            except Refused as exc:
                if request.headers.get("content-type", "").startswith("application/json"):
                    raise
                _ = tr_of(request)
                return self.message(request, exc.status, _("That could not be done"), exc.message)
        return route

    def message(self, request: Request, status: int, title: str, text: str, retry: int | None = None
                ) -> HTMLResponse:
        response = self.page(request, "message.html", status, title=title, message=text)
        if retry is not None:
            response.headers["Retry-After"] = str(retry)
        return response
