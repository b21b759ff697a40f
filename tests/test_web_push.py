"""Web Push (issue 26): a turn that begins is pushed, encrypted and signed with the host's VAPID key, to the
seat's subscription, and the browser's key (only) can read it: it links to the seat. The push service is a
local HTTP server the test starts; the subscription is the one a browser would send."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest

from support.processes import PATIENT_S

pytest.importorskip("pywebpush", reason="pip install 'spots[push]'")
pytestmark = pytest.mark.timeout(120)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def browser_keys() -> dict[str, str]:
    """The keys a browser's subscription carries (a fresh browser's)."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    key = ec.generate_private_key(ec.SECP256R1())
    return {"p256dh": b64(key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)),
            "auth": b64(os.urandom(16))}


class PushService(HTTPServer):
    """Keeps every pushed request: (headers, body)."""

    def __init__(self) -> None:
        self.pushed: list[tuple[dict[str, str], bytes]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # (http.server's name)
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.pushed.append((dict(self.headers), body))
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)


def next_state(ws: Any, after: int = -1) -> dict[str, Any]:
    """The view of the next state message with more than ``after`` moves (a move's state comes before its "ok")."""
    while (msg := ws.receive_json())["type"] != "state" or msg["view"]["moves"] <= after:
        assert msg["type"] in ("hello", "ok", "state"), msg
    return dict(msg["view"])


def play_until_seat_1_begins_a_turn(c: Any, table_id: str, secrets: list[str]) -> None:
    """Each seat to move plays its turn (stopping when it may) on a fresh socket, until a move of seat 0 begins
    seat 1's turn."""
    seat = c.get(f"/api/tables/{table_id}").json()["view"]["to_move"]
    while True:
        with c.websocket_connect(f"/ws/{table_id}?token={secrets[seat]}") as ws:
            view = next_state(ws)
            while view["to_move"] == seat:
                moves = [m["move"] for m in view["legal"]]
                ws.send_json({"type": "move", "move": "stop" if "stop" in moves else next(
                    (m for m in moves if m.startswith("bury")), moves[0]), "at": view["moves"]})
                view = next_state(ws, after=view["moves"])
        if seat == 0 and view["to_move"] == 1:
            return
        seat = view["to_move"]


def wait_for_a_push(service: PushService) -> None:
    deadline = time.time() + PATIENT_S
    while not service.pushed:
        assert time.time() < deadline, "nothing was pushed"
        time.sleep(0.05)


def test_a_turn_that_begins_is_pushed_to_the_seats_subscription_and_only_its_browser_can_read_it(
        tmp_path: Path) -> None:
    import http_ece
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from fastapi.testclient import TestClient
    from py_vapid import Vapid as VapidKey

    from spots.web.app import create_app
    from spots.web.notices.service import Vapid
    from spots.web.server import vapid_public_key

    key_file = tmp_path / "vapid.pem"
    host_key = VapidKey()
    host_key.generate_keys()
    host_key.save_key(str(key_file))
    browser_key = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    service = PushService()
    threading.Thread(target=service.serve_forever, daemon=True).start()
    vapid = Vapid(str(key_file), vapid_public_key(str(key_file)), "mailto:host@example.org")
    app = create_app(tmp_path / "push.db", bot_delay=0.0, requests_per_second=1000.0, public_url="https://spots.test",
                     notices={"vapid": vapid, "push_to": lambda endpoint: endpoint.startswith(
                         f"http://127.0.0.1:{service.server_port}/")})  # this test's push service stands in
    try:
        with TestClient(app) as c:
            table = c.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}],
                                                "tricks": "beginner", "target": 2}).json()
            links = [s["link"] for s in table["seats"]]
            secrets = [link.rsplit("/", 1)[1] for link in links]
            subscription = {"endpoint": f"http://127.0.0.1:{service.server_port}/push/1",
                            "keys": {"p256dh": b64(browser_key.public_key().public_bytes(
                                Encoding.X962, PublicFormat.UncompressedPoint)), "auth": b64(auth)}}
            refused = c.post("/api/push", json={"seat": secrets[1], "subscription": subscription})
            assert refused.status_code == 400  # a browser's subscription is an https address
            for elsewhere in ("https://127.0.0.1/push/1", "https://intranet.example/push",  # and the server posts
                              "https://fcm.googleapis.com.evil.example/x", "https://fcm.googleapis.com:8443/x"):  # only
                other = {**subscription, "endpoint": elsewhere}  # to the browsers' push services
                refused = c.post("/api/push", json={"seat": secrets[1], "subscription": other})
                assert refused.status_code == 400 and "push service" in refused.json()["message"], elsewhere
            kept = c.post("/api/push", json={"seat": secrets[1], "subscription": {
                **subscription, "endpoint": "https://fcm.googleapis.com/fcm/send/abc"}})
            assert kept.status_code == 200
            c.app.state.hub.store.drop_push(table["id"], 1, "https://fcm.googleapis.com/fcm/send/abc")
            c.app.state.hub.store.add_push(table["id"], 1, subscription["endpoint"], json.dumps(subscription))
            play_until_seat_1_begins_a_turn(c, table["id"], secrets)
            wait_for_a_push(service)
    finally:
        service.shutdown()
    headers, body = service.pushed[0]
    headers = {k.lower(): v for k, v in headers.items()}
    assert headers["content-encoding"] == "aes128gcm" and headers["authorization"].startswith("vapid t=")
    notice = json.loads(http_ece.decrypt(body, private_key=browser_key, auth_secret=auth, version="aes128gcm"))
    assert notice["url"] == links[1] and table["id"] in notice["title"]
    assert links[1].encode() not in body  # encrypted: the seat's secret is not readable on the way


def test_a_push_service_that_never_answers_holds_up_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A subscription whose service accepts the connection and never answers is given up after the push timeout,
    and the seat's next subscription is still pushed to (with no timeout, the first would wait for ever)."""
    import socket

    from fastapi.testclient import TestClient
    from py_vapid import Vapid as VapidKey

    from spots.web.app import create_app
    from spots.web.notices import service as notices
    from spots.web.server import vapid_public_key

    monkeypatch.setattr(notices, "PUSH_TIMEOUT", 0.5)
    key_file = tmp_path / "vapid.pem"
    host_key = VapidKey()
    host_key.generate_keys()
    host_key.save_key(str(key_file))
    silent = socket.create_server(("127.0.0.1", 0))  # the kernel accepts connections; nobody ever reads them
    service = PushService()
    threading.Thread(target=service.serve_forever, daemon=True).start()
    vapid = notices.Vapid(str(key_file), vapid_public_key(str(key_file)), "mailto:host@example.org")
    app = create_app(tmp_path / "push.db", bot_delay=0.0, requests_per_second=1000.0, public_url="https://spots.test",
                     notices={"vapid": vapid, "push_to": lambda endpoint: endpoint.startswith("http://127.0.0.1:")})
    try:
        with TestClient(app) as c:
            table = c.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}],
                                                "tricks": "beginner", "target": 2}).json()
            secrets = [s["link"].rsplit("/", 1)[1] for s in table["seats"]]
            for port in (silent.getsockname()[1], service.server_port):  # the silent one first (kept in order)
                endpoint = f"http://127.0.0.1:{port}/push/1"
                c.app.state.hub.store.add_push(table["id"], 1, endpoint, json.dumps(
                    {"endpoint": endpoint, "keys": browser_keys()}))
            play_until_seat_1_begins_a_turn(c, table["id"], secrets)
            wait_for_a_push(service)
    finally:
        service.shutdown()
        silent.close()
