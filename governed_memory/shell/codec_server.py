"""`memctl codec-server`: Temporal's remote-codec HTTP protocol, so that the Temporal UI and the
`temporal` CLI show decoded payloads to authorised operators, and to nobody else.

Every payload in Temporal is encrypted (`shell.codec`); this server holds the keys and decodes
for whoever proves to be an operator:

- `POST /decode` and `POST /encode` take and return `{"payloads": [...]}` (the protobuf JSON of
  `temporal.api.common.v1.Payloads`), the namespace in `X-Namespace`; what the UI and the CLI
  send.
- An operator proves itself with a token: `Authorization: Bearer <token>` (the CLI's
  `--codec-auth "Bearer …"`), or the session cookie that signing in at `/login` (a form, POSTed
  from this server's own page: no token in any URL) sets for the UI (its codec setting "include
  cross-origin credentials" sends it). Tokens are random, issued by
  `memctl codec-server token NAME`, and kept only as SHA-256 hashes with the operator's name in
  a 0600 file of the data folder (`codec-operators.json`); a token can be revoked.
- CORS answers only the configured UI origins, with credentials.
- Every request is logged with the operator, the namespace and the number of payloads, never
  their content; a refused one with its reason.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path
from typing import Annotated

import structlog
from fastapi import Cookie, FastAPI, Header, HTTPException, Request, Response
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import HTMLResponse
from google.protobuf import json_format
from temporalio.api.common.v1 import Payloads

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.stores.files import private_dir
from governed_memory.shell.codec import EncryptionCodec, Keyring

log = structlog.get_logger("governed_memory.shell.codec_server")

COOKIE = "memory_codec_session"
#: Upper bound of a request body: a batch of payloads as the UI sends them.
MAX_BODY = 8 * 1024 * 1024


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class OperatorTokens:
    """Operator tokens by name, kept as hashes in a private file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        if not self.path.exists():
            return {}
        found = json.loads(self.path.read_text(encoding="utf-8"))
        return {str(k): str(v) for k, v in found.get("operators", {}).items()}

    def _write(self, operators: dict[str, str]) -> None:
        private_dir(self.path.parent)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(fd, "w", encoding="utf-8") as f:
            json.dump({"operators": operators}, f, indent=2)
        tmp.replace(self.path)

    def issue(self, name: str) -> str:
        """A new token for the operator (replacing any earlier one); shown once."""
        if not name or not name.replace("-", "").replace("_", "").replace(".", "").isalnum():
            raise InvalidInput("an operator name is letters, digits, '-', '_' or '.'", field="name")
        token = "op_" + secrets.token_urlsafe(32)
        self._write({**self._read(), name: _digest(token)})
        return token

    def revoke(self, name: str) -> bool:
        operators = self._read()
        if operators.pop(name, None) is None:
            return False
        self._write(operators)
        return True

    def names(self) -> list[str]:
        return sorted(self._read())

    def operator(self, token: str | None) -> str | None:
        """The operator a token belongs to, or None (compared in constant time)."""
        if not token:
            return None
        digest = _digest(token)
        for name, known in self._read().items():
            if hmac.compare_digest(known, digest):
                return name
        return None


def create_app(keyring: Keyring, tokens: OperatorTokens, origins: list[str]) -> FastAPI:
    codec = EncryptionCodec(keyring)
    app = FastAPI(
        title="memory codec server",
        description="Temporal remote codec for authorised operators",
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(
        CORSMiddleware,
        allow_origins=origins,
        allow_credentials=True,
        allow_methods=["POST", "GET", "OPTIONS"],
        allow_headers=["Content-Type", "X-Namespace", "Authorization"],
    )

    def operator(authorization: str | None, session: str | None, path: str) -> str:
        token = None
        if authorization and authorization.lower().startswith("bearer "):
            token = authorization[7:].strip()
        name = tokens.operator(token) or tokens.operator(session)
        if name is None:
            log.warning("codec request refused", path=path, reason="no valid operator token")
            raise HTTPException(status_code=401, detail="an operator token is required")
        return name

    async def payloads(request: Request) -> Payloads:
        body = await request.body()
        if len(body) > MAX_BODY:
            raise HTTPException(status_code=413, detail="too many payloads in one request")
        try:
            return json_format.Parse(body, Payloads())
        except json_format.ParseError:
            raise HTTPException(
                status_code=400, detail='expected {"payloads": [...]} as protobuf JSON'
            ) from None

    async def convert(
        request: Request,
        encode: bool,
        authorization: str | None,
        session: str | None,
        namespace: str | None,
    ) -> Response:
        path = "/encode" if encode else "/decode"
        who = operator(authorization, session, path)
        found = await payloads(request)
        try:
            done = await (codec.encode if encode else codec.decode)(list(found.payloads))
        except ValueError as exc:  # a key this server does not hold
            raise HTTPException(status_code=422, detail=str(exc)) from None
        log.info(path.strip("/"), operator=who, namespace=namespace, payloads=len(done))
        body = json_format.MessageToJson(Payloads(payloads=done))
        return Response(content=body, media_type="application/json")

    @app.post("/decode")
    async def decode(
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
        x_namespace: Annotated[str | None, Header()] = None,
        memory_codec_session: Annotated[str | None, Cookie()] = None,
    ) -> Response:
        return await convert(request, False, authorization, memory_codec_session, x_namespace)

    @app.post("/encode")
    async def encode(
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
        x_namespace: Annotated[str | None, Header()] = None,
        memory_codec_session: Annotated[str | None, Cookie()] = None,
    ) -> Response:
        return await convert(request, True, authorization, memory_codec_session, x_namespace)

    @app.get("/login", response_class=HTMLResponse)
    async def login_form(request: Request) -> HTMLResponse:
        """The sign-in form. A token in the URL signs nobody in (it would stay in the
        browser's history and the server's logs)."""
        if "token" in request.query_params:
            raise HTTPException(
                status_code=400,
                detail="sign in with the form (a POST): a token never goes in a URL",
            )
        return HTMLResponse(
            "<form method=post action=/login><label>Operator token "
            "<input type=password name=token autocomplete=off required></label>"
            "<button>Sign in</button></form>"
        )

    @app.post("/login", response_class=HTMLResponse)
    async def login(request: Request) -> HTMLResponse:
        """Sign a browser in for the UI: the token becomes an HttpOnly session cookie. Only
        from this server's own page (another origin cannot sign a browser in as it likes)."""
        origin = request.headers.get("origin")
        own = f"{request.url.scheme}://{request.url.netloc}"
        if origin is not None and origin != own:
            log.warning("codec login refused", reason="cross-origin")
            raise HTTPException(status_code=403, detail="sign in from this server's own page")
        form = await request.form()
        token = form.get("token")
        name = tokens.operator(token if isinstance(token, str) else None)
        if name is None:
            log.warning("codec login refused", reason="unknown token")
            raise HTTPException(status_code=401, detail="unknown operator token")
        log.info("codec login", operator=name)
        page = HTMLResponse(
            f"<p>Signed in as operator <b>{name}</b>: the Temporal UI can now decode payloads "
            "(codec endpoint set to this server, cross-origin credentials included).</p>"
        )
        page.set_cookie(COOKIE, str(token), httponly=True, samesite="lax", max_age=8 * 3600)
        return page

    @app.get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    return app
