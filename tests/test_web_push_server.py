"""Issue 42, finding 2: the Web Push address check, against a real server process.

``https://127.0.0.1\\@fcm.googleapis.com:443/x`` passed the check (``urlsplit`` reads the host after the last
``@``) while requests, which sends the push, reads ``127.0.0.1``. Now only a plain https address at a browser's
push service is kept, the sender's own parser must read the same host, and a seat keeps at most 5 browsers.
"""

from __future__ import annotations

import base64
import os
import sqlite3
from pathlib import Path

import httpx
import pytest

from support.processes import PATIENT_S
from support.servers import Server

pytest.importorskip("pywebpush", reason="pip install 'spots[push]'")
pytestmark = pytest.mark.timeout(300)

# Each reads as a push service to one URL parser and as another host (or port, or scheme) to another, or is
# not plainly a browser's endpoint.
WALKED_PAST = [
    "https://127.0.0.1\\@fcm.googleapis.com:443/x",
    "https://127.0.0.1\\\\@fcm.googleapis.com/x",
    "https://127.0.0.1%5c@fcm.googleapis.com/x",
    "https://127.0.0.1@fcm.googleapis.com/x",
    "https://user:pass@fcm.googleapis.com/x",
    "https://127.0.0.1#@fcm.googleapis.com/x",
    "https://127.0.0.1?@fcm.googleapis.com/x",
    "https://127.0.0.1/\\@fcm.googleapis.com/x",
    "https:\\\\fcm.googleapis.com/x",
    "https:/fcm.googleapis.com/x",
    "https://fcm.googleapis.com\t.evil.example/x",
    "https://fcm.googleapis.com /x",
    "https://fcm.googleapis.com:443@127.0.0.1/x",
    "https://fcm.googleapis.com:0443/x",
    "https://fcm.googleapis.com:8443/x",
    "https://fcm.googleapis.com./x",
    "https://fcm.googleapis.com.evil.example/x",
    "https://[::1]/fcm.googleapis.com",
    "http://fcm.googleapis.com/x",
    "HTTPS://FCM.GOOGLEAPIS.COM/x",
    "https://fcm.googleapis.com/x\\y",
    "https://fcm.googleapis.com/x\ny",
]
BROWSERS = [  # the shapes real browsers send
    "https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bH-x_y",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABf-x_y=",
    "https://db5p.notify.windows.com/w/?token=BQYAAA%2b%2fQx",
    "https://web.push.apple.com/QGuQyavXutnMH",
]


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def test_a_push_address_is_kept_only_when_plainly_a_browsers_push_service(tmp_path: Path) -> None:
    from py_vapid import Vapid

    key = Vapid()
    key.generate_keys()
    key.save_key(str(tmp_path / "vapid.pem"))
    db = tmp_path / "s.db"
    server = Server(db, "--requests-per-second", "1000", "--vapid-key", str(tmp_path / "vapid.pem"),
                    "--vapid-subject", "mailto:host@example.org").start()
    try:
        with httpx.Client(base_url=server.url, timeout=PATIENT_S, headers={"Origin": server.url}) as client:
            table = client.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}],
                                                     "tricks": "beginner", "target": 2}).json()
            seat = table["seats"][1]["link"].rsplit("/", 1)[1]
            keys = {"p256dh": b64(os.urandom(65)), "auth": b64(os.urandom(16))}

            def subscribe(endpoint: str) -> httpx.Response:
                return client.post("/api/push", json={"seat": seat, "subscription": {"endpoint": endpoint,
                                                                                      "keys": keys}})

            for endpoint in WALKED_PAST:
                refused = subscribe(endpoint)
                assert refused.status_code == 400, endpoint
                assert refused.json()["error"] == "bad-subscription" and "plain https" in refused.json()["message"]
            for endpoint in BROWSERS:
                assert subscribe(endpoint).status_code == 200, endpoint
            for n in range(3):  # more browsers for the seat: the newest 5 are kept
                assert subscribe(f"https://fcm.googleapis.com/fcm/send/more-{n}").status_code == 200
    finally:
        server.stop()
    with sqlite3.connect(db) as con:
        kept = sorted(e for (e,) in con.execute("SELECT endpoint FROM push_subscriptions"))
    assert kept == sorted(BROWSERS[2:] + [f"https://fcm.googleapis.com/fcm/send/more-{n}" for n in range(3)]), kept
    assert "Traceback" not in server.log.read_text()
