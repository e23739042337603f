"""Passkeys (issue 52), tried from outside on real server processes, on SQLite and PostgreSQL,
with a software authenticator written here (an ES256 key per passkey, attestation "none",
the authenticator data, client data and signatures built as the WebAuthn spec says): adding
one, signing in with it (no username), signing up with one alone, listing, renaming and
removing them, confirming a deletion; and the refusals: a wrong, replayed or expired
challenge, another origin or relying party, an unknown credential, a signature counter that
goes back, a missing CSRF token, oversize and malformed input, the last way to sign in
removed, the limits."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

from meeple.server.features.accounts.passkey_store import Passkeys, TooManyChallenges
from meeple.settings import Settings
from meeple.store import Store, sqlite_url
from tests.server.conftest import TLS, Server, free_port
from tests.server.test_accounts import PASSWORD, new_name, problem

#: The settings of this module's second server: passkey sign-ins limited, and the relying
#: party set as a deployment behind a proxy sets it.
LIMITS = {"MEEPLE_RATE_SIGNIN": "4/minute", "MEEPLE_RP_ID": "meeple.example.org",
          "MEEPLE_RP_ORIGIN": "https://meeple.example.org"}


# ------------------------------------------------------------------------ the authenticator
def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def cbor(value: Any) -> bytes:
    """CBOR (RFC 8949) of ints, byte and text strings, lists and maps: what WebAuthn's
    attestation object and COSE keys need."""
    def head(major: int, n: int) -> bytes:
        if n < 24:
            return bytes([major << 5 | n])
        for extra, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
            if n < 1 << (8 * size):
                return bytes([major << 5 | extra]) + n.to_bytes(size, "big")
        raise ValueError(n)

    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, str):
        raw = value.encode("utf-8")
        return head(3, len(raw)) + raw
    if isinstance(value, list):
        return head(4, len(value)) + b"".join(cbor(v) for v in value)
    if isinstance(value, dict):
        return head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(type(value))


#: Authenticator data flags: user present, user verified, attested credential data.
UP, UV, AT = 0x01, 0x04, 0x40


@dataclass
class Key:
    private: ec.EllipticCurvePrivateKey
    user_handle: bytes
    rp_id: str
    count: int = 0


class Authenticator:
    """A software passkey authenticator (a platform one, as a phone's or a laptop's): it
    makes discoverable ES256 credentials and signs assertions with them. ``step`` is how its
    signature counter moves at each use (0: it keeps none)."""

    def __init__(self, origin: str, step: int = 1) -> None:
        self.origin = origin
        self.step = step
        self.keys: dict[bytes, Key] = {}

    @staticmethod
    def _client_data(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin,
                           "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], origin: str | None = None,
               rp_id: str | None = None) -> dict[str, Any]:
        """The answer of navigator.credentials.create() to ``options`` (``{"publicKey"}``)."""
        pk = options["publicKey"]
        rp = rp_id or pk["rp"]["id"]
        assert pk["authenticatorSelection"]["residentKey"] == "required"
        assert pk["authenticatorSelection"]["userVerification"] == "preferred"
        assert any(p["alg"] == -7 for p in pk["pubKeyCredParams"])
        excluded = {unb64u(c["id"]) for c in pk.get("excludeCredentials", [])}
        assert not excluded & set(self.keys), "a passkey of this account is here already"
        private = ec.generate_private_key(ec.SECP256R1())
        numbers = private.public_key().public_numbers()
        cose = cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                     -3: numbers.y.to_bytes(32, "big")})
        cred_id = os.urandom(32)
        self.keys[cred_id] = Key(private, unb64u(pk["user"]["id"]), rp)
        auth_data = (hashlib.sha256(rp.encode()).digest() + bytes([UP | UV | AT])
                     + (0).to_bytes(4, "big") + bytes(16) + len(cred_id).to_bytes(2, "big")
                     + cred_id + cose)
        attestation = cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", pk["challenge"],
                                        origin or self.origin)
        return {"id": b64u(cred_id), "rawId": b64u(cred_id), "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64u(client_data),
                             "attestationObject": b64u(attestation),
                             "transports": ["internal", "hybrid"]}}

    def get(self, options: dict[str, Any], cred_id: bytes | None = None,
            count: int | None = None, origin: str | None = None, rp_id: str | None = None,
            user_handle: bytes | None = None, challenge: str | None = None
            ) -> dict[str, Any]:
        """The answer of navigator.credentials.get() to ``options``, with the passkey
        ``cred_id`` (default: the newest of those allowed, or of all: a discoverable one)."""
        pk = options["publicKey"]
        allowed = [unb64u(c["id"]) for c in pk.get("allowCredentials", [])]
        if cred_id is None:
            cred_id = [c for c in self.keys if not allowed or c in allowed][-1]
        key = self.keys[cred_id]
        key.count = count if count is not None else key.count + self.step
        rp = rp_id or pk["rpId"]
        auth_data = hashlib.sha256(rp.encode()).digest() + bytes([UP | UV]) + \
            key.count.to_bytes(4, "big")
        client_data = self._client_data("webauthn.get", challenge or pk["challenge"],
                                        origin or self.origin)
        signature = key.private.sign(auth_data + hashlib.sha256(client_data).digest(),
                                     ec.ECDSA(hashes.SHA256()))
        return {"id": b64u(cred_id), "rawId": b64u(cred_id), "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64u(client_data),
                             "authenticatorData": b64u(auth_data), "signature": b64u(signature),
                             "userHandle": b64u(user_handle if user_handle is not None
                                                else key.user_handle)}}


# ------------------------------------------------------------------------ clients
class Browser:
    """A browser at http://localhost:PORT (a secure context, whose name can be a relying
    party): it keeps its cookies and its session's CSRF token."""

    def __init__(self, srv: Server, host: str | None = None, address: str = "127.0.0.1") -> None:
        self.srv = srv
        self.host = host or f"localhost:{srv.port}"
        self.origin = f"http://{self.host}"
        self.http = httpx.Client(base_url=srv.base, timeout=60, verify=TLS,
                                 headers={"Host": self.host},
                                 transport=httpx.HTTPTransport(local_address=address))
        self.csrf = ""
        self.username = ""

    def close(self) -> None:
        self.http.close()

    def request(self, method: str, path: str, csrf: bool = True, **kw: Any) -> httpx.Response:
        headers = dict(kw.pop("headers", None) or {})
        if csrf and self.csrf:
            headers.setdefault("X-CSRF-Token", self.csrf)
        return self.http.request(method, path, headers=headers, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> httpx.Response:
        return self.request("POST", path, json=body, **kw)

    def signed(self, r: httpx.Response, status: int = 200) -> dict[str, Any]:
        assert r.status_code == status, r.text
        answer: dict[str, Any] = r.json()
        self.csrf = answer["csrf"]
        return answer

    def sign_up(self) -> dict[str, Any]:
        self.username = new_name("pk")
        return self.signed(self.post("/api/accounts", {"username": self.username,
                                                       "password": PASSWORD}), 201)

    def options(self, path: str, body: Any = None) -> dict[str, Any]:
        r = self.post(path, body)
        assert r.status_code == 200, r.text
        options: dict[str, Any] = r.json()
        return options

    def add_passkey(self, auth: Authenticator, name: str | None = None) -> dict[str, Any]:
        credential = auth.create(self.options("/api/passkeys/register/options"))
        r = self.post("/api/passkeys/register", {"credential": credential, "name": name})
        assert r.status_code == 201, r.text
        made: dict[str, Any] = r.json()
        return made

    def sign_in(self, auth: Authenticator, **kw: Any) -> httpx.Response:
        options = self.options("/api/passkeys/signin/options")
        r = self.post("/api/passkeys/signin", {"credential": auth.get(options, **kw)})
        if r.status_code == 200:
            self.csrf = r.json()["csrf"]
        return r

    def mine(self) -> dict[str, Any]:
        r = self.http.get("/api/me/passkeys")
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer


@pytest.fixture
def ann(server: Server) -> Iterator[Browser]:
    b = Browser(server)
    b.sign_up()
    yield b
    b.close()


@pytest.fixture(scope="module")
def limited(db_url: str, server: Server, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Server]:
    """A second server on the same database: sign-ins limited, the relying party set."""
    srv = Server(db_url, free_port(), tmp_path_factory.mktemp("log") / "server.log")
    srv.env = {**LIMITS, "MEEPLE_ALLOWED_HOSTS": "meeple.example.org"}
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


# ------------------------------------------------------------------------ the ceremonies
def test_add_a_passkey_and_sign_in_with_it_without_a_username(server: Server, ann: Browser
                                                              ) -> None:
    auth = Authenticator(ann.origin)
    options = ann.options("/api/passkeys/register/options")
    pk = options["publicKey"]
    assert pk["rp"] == {"id": "localhost", "name": "meeple"}
    assert pk["user"]["name"] == ann.username and pk["excludeCredentials"] == []
    assert pk["attestation"] == "none" and len(unb64u(pk["challenge"])) == 32
    r = ann.post("/api/passkeys/register", {"credential": auth.create(options),
                                            "name": "My laptop"})
    assert r.status_code == 201, r.text
    first = r.json()
    assert first["name"] == "My laptop" and first["last_used"] is None
    assert first["transports"] == ["internal", "hybrid"]
    # a second one: the first is excluded (the same authenticator would not make it again)
    options = ann.options("/api/passkeys/register/options")
    assert [c["id"] for c in options["publicKey"]["excludeCredentials"]] == \
        [b64u(next(iter(auth.keys)))]
    phone = Authenticator(ann.origin)
    second = ann.post("/api/passkeys/register", {"credential": phone.create(options)}).json()
    assert second["name"] == "Passkey 2"
    mine = ann.mine()
    assert [p["id"] for p in mine["passkeys"]] == [first["id"], second["id"]]
    assert mine["password"] is True and mine["most"] == 20

    # signed out, a new browser signs in with the laptop's passkey: no username asked
    fresh = Browser(server)
    options = fresh.options("/api/passkeys/signin/options")
    assert options["publicKey"]["allowCredentials"] == []  # discoverable: any of this site's
    assert options["publicKey"]["rpId"] == "localhost"
    assert options["publicKey"]["userVerification"] == "preferred"
    r = fresh.post("/api/passkeys/signin", {"credential": auth.get(options)})
    answer = fresh.signed(r)
    assert answer["account"]["username"] == ann.username
    assert "httponly" in r.headers["set-cookie"].lower()
    me = fresh.http.get("/api/me")
    assert me.status_code == 200 and me.json()["csrf"] == fresh.csrf
    # a signed-in change with its CSRF token works; the list says when it was used
    assert fresh.request("PATCH", "/api/me", json={"display_name": "Ann P"}).status_code == 200
    used = {p["id"]: p["last_used"] for p in fresh.mine()["passkeys"]}
    assert used[first["id"]] is not None and used[second["id"]] is None
    # signing in again with the other one (the counter moves on each time)
    assert fresh.sign_in(phone).status_code == 200
    assert fresh.sign_in(auth).status_code == 200

    # the export lists them by name and date, never key material
    export = fresh.http.get("/api/me/export")
    assert export.status_code == 200
    assert [(p["name"], p["last_used"] is not None) for p in export.json()["passkeys"]] == \
        [("My laptop", True), ("Passkey 2", True)]
    assert b64u(next(iter(auth.keys))) not in export.text
    assert "public_key" not in export.text and "sign_count" not in export.text
    fresh.close()


def test_rename_and_remove(server: Server, ann: Browser) -> None:
    auth = Authenticator(ann.origin)
    made = ann.add_passkey(auth, "old name")
    r = ann.request("PATCH", f"/api/me/passkeys/{made['id']}", json={"name": "  Work  key "})
    assert r.status_code == 200 and r.json()["name"] == "Work key"
    for name, word in (("", "1 to 60"), ("x" * 61, "60"), ("a\u200bb", "invisible")):
        r = ann.request("PATCH", f"/api/me/passkeys/{made['id']}", json={"name": name})
        problem(r, 422, word)
    # another account's passkey is nobody's to rename or remove
    bob = Browser(server)
    bob.sign_up()
    problem(bob.request("PATCH", f"/api/me/passkeys/{made['id']}", json={"name": "mine"}),
            404, "no such passkey")
    problem(bob.request("DELETE", f"/api/me/passkeys/{made['id']}"), 404, "no such passkey")
    problem(bob.request("DELETE", "/api/me/passkeys/not-hex"), 422)
    assert ann.mine()["passkeys"][0]["name"] == "Work key"
    # removed: it signs in no more
    r = ann.request("DELETE", f"/api/me/passkeys/{made['id']}")
    assert r.status_code == 200 and ann.mine()["passkeys"] == []
    problem(Browser(server).sign_in(auth), 401, "not registered")
    bob.close()


def test_sign_up_with_a_passkey_alone_and_the_last_way_to_sign_in(server: Server) -> None:
    b = Browser(server)
    auth = Authenticator(b.origin)
    name = new_name("solo")
    options = b.options("/api/passkeys/signup/options", {"username": name,
                                                         "display_name": "Solo Player"})
    assert options["publicKey"]["user"]["name"] == name
    assert options["publicKey"]["user"]["displayName"] == "Solo Player"
    r = b.post("/api/passkeys/signup", {"credential": auth.create(options), "name": "Phone"})
    account = b.signed(r, 201)["account"]
    assert account["username"] == name and account["display_name"] == "Solo Player"
    assert b.http.get("/api/me").status_code == 200
    mine = b.mine()
    assert mine["password"] is False and [p["name"] for p in mine["passkeys"]] == ["Phone"]
    # the username is taken now, whatever its case, for either kind of sign-up
    problem(server.api("POST", "/api/accounts", json={"username": name.upper(),
                                                      "password": PASSWORD}), 409, "taken")
    problem(Browser(server).post("/api/passkeys/signup/options", {"username": name.upper()}),
            409, "taken")
    # no password: a password sign-in answers as for any wrong password
    problem(server.api("POST", "/api/session", json={"username": name, "password": PASSWORD}),
            401, "wrong username or password")
    # its only passkey cannot be removed: 409, and it is still there and signs in
    only = mine["passkeys"][0]["id"]
    problem(b.request("DELETE", f"/api/me/passkeys/{only}"), 409, "only way to sign in",
            "set a password or add another passkey")
    assert b.sign_in(auth).status_code == 200
    # a second passkey: then the first may go, not the last
    other = Authenticator(b.origin)
    second = b.add_passkey(other)
    assert b.request("DELETE", f"/api/me/passkeys/{only}").status_code == 200
    problem(b.request("DELETE", f"/api/me/passkeys/{second['id']}"), 409, "only way")
    # a password set (none asked before it): now the last passkey may go too
    r = b.post("/api/me/password", {"new_password": "a brand new secret"})
    b.signed(r)
    assert b.mine()["password"] is True
    assert b.request("DELETE", f"/api/me/passkeys/{second['id']}").status_code == 200
    r = server.api("POST", "/api/session", json={"username": name,
                                                 "password": "a brand new secret"})
    assert r.status_code == 200
    # from now on changing it needs the old one
    problem(b.post("/api/me/password", {"new_password": "another new secret"}), 403,
            "old_password")
    b.close()


def test_a_username_taken_during_a_passkey_sign_up_makes_nothing(server: Server) -> None:
    b = Browser(server)
    name = new_name("race")
    options = b.options("/api/passkeys/signup/options", {"username": name})
    assert server.api("POST", "/api/accounts", json={"username": name,
                                                     "password": PASSWORD}).status_code == 201
    auth = Authenticator(b.origin)
    problem(b.post("/api/passkeys/signup", {"credential": auth.create(options)}), 409, "taken")
    assert "meeple_session" not in b.http.cookies
    problem(Browser(server).sign_in(auth), 401, "not registered")
    b.close()


def test_deleting_an_account_confirmed_by_a_passkey_deletes_its_passkeys(server: Server
                                                                         ) -> None:
    b = Browser(server)
    auth = Authenticator(b.origin)
    name = new_name("gone")
    options = b.options("/api/passkeys/signup/options", {"username": name})
    b.signed(b.post("/api/passkeys/signup", {"credential": auth.create(options)}), 201)
    # no password to give: the deletion is confirmed by one of its passkeys
    problem(b.request("DELETE", "/api/me", json={"password": PASSWORD}), 403, "password")
    problem(b.request("DELETE", "/api/me", json={}), 422, "password or a passkey")
    options = b.options("/api/passkeys/confirm/options")
    assert [c["id"] for c in options["publicKey"]["allowCredentials"]] == \
        [b64u(next(iter(auth.keys)))]
    # an answer for a sign-in's challenge does not confirm a deletion
    signin = b.options("/api/passkeys/signin/options")
    problem(b.request("DELETE", "/api/me", json={"passkey": auth.get(signin)}), 400,
            "challenge is unknown")
    r = b.request("DELETE", "/api/me", json={"passkey": auth.get(options)})
    assert r.status_code == 200, r.text
    assert b.http.get("/api/me").status_code == 401
    problem(Browser(server).sign_in(auth), 401, "not registered")
    # the username is free again
    again = Browser(server)
    options = again.options("/api/passkeys/signup/options", {"username": name})
    again.signed(again.post("/api/passkeys/signup",
                            {"credential": Authenticator(again.origin).create(options)}), 201)
    # a password account deleted with its password: its passkeys go too
    ann = Browser(server)
    ann.sign_up()
    key = Authenticator(ann.origin)
    ann.add_passkey(key)
    assert ann.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
    problem(Browser(server).sign_in(key), 401, "not registered")
    for c in (b, again, ann):
        c.close()


# ------------------------------------------------------------------------ refusals
def _count(b: Browser, passkey: str) -> str | None:
    return {p["id"]: p["last_used"] for p in b.mine()["passkeys"]}[passkey]


def test_wrong_replayed_and_foreign_answers_change_nothing(server: Server, ann: Browser
                                                           ) -> None:
    auth = Authenticator(ann.origin)
    made = ann.add_passkey(auth)
    guest = Browser(server)

    def refused(r: httpx.Response, status: int, *words: str) -> None:
        problem(r, status, *words)
        assert "set-cookie" not in r.headers and "meeple_session" not in guest.http.cookies

    # a challenge never given
    options = guest.options("/api/passkeys/signin/options")
    forged = auth.get(options, challenge=b64u(os.urandom(32)))
    refused(guest.post("/api/passkeys/signin", {"credential": forged}), 400,
            "challenge is unknown")
    # a right answer, then the same answer again (replayed): its challenge is gone
    good = auth.get(options)
    assert guest.post("/api/passkeys/signin", {"credential": good}).status_code == 200
    guest.http.cookies.clear()
    refused(guest.post("/api/passkeys/signin", {"credential": good}), 400,
            "challenge is unknown", "answered already")
    # another origin (a look-alike site that got the options), another relying party
    for kw, words in (({"origin": "http://evil.example"}, ("origin",)),
                      ({"origin": f"https://{ann.host}"}, ("origin",)),
                      ({"rp_id": "evil.example"}, ("RP ID",))):
        options = guest.options("/api/passkeys/signin/options")
        refused(guest.post("/api/passkeys/signin", {"credential": auth.get(options, **kw)}),
                401, "not accepted", *words)
    # a passkey this server never registered
    options = guest.options("/api/passkeys/signin/options")
    stranger = Authenticator(ann.origin)
    stranger.create(ann.options("/api/passkeys/register/options"))  # made, never sent
    refused(guest.post("/api/passkeys/signin", {"credential": stranger.get(options)}), 401,
            "not registered")
    # a signature by another key under this passkey's id
    options = guest.options("/api/passkeys/signin/options")
    answer = auth.get(options)
    other = stranger.get(options)
    answer["response"]["signature"] = other["response"]["signature"]
    refused(guest.post("/api/passkeys/signin", {"credential": answer}), 401,
            "not accepted", "signature")
    # a user handle that is not the passkey's account's
    options = guest.options("/api/passkeys/signin/options")
    refused(guest.post("/api/passkeys/signin", {"credential": auth.get(
        options, user_handle=b"someone else")}), 401, "user handle")
    # a registration answer where a sign-in's is asked, and the reverse
    options = guest.options("/api/passkeys/signin/options")
    refused(guest.post("/api/passkeys/signin", {"credential": Authenticator(ann.origin).create(
        {"publicKey": {**ann.options("/api/passkeys/register/options")["publicKey"],
                       "challenge": options["publicKey"]["challenge"]}})}), 400,
        "authenticatorData")
    signin = guest.options("/api/passkeys/signin/options")
    fake = ann.options("/api/passkeys/register/options")
    fake["publicKey"]["challenge"] = signin["publicKey"]["challenge"]
    problem(ann.post("/api/passkeys/register", {"credential": Authenticator(
        ann.origin).create(fake)}), 400, "challenge is unknown")
    # another account's registration challenge is not this one's
    bob = Browser(server)
    bob.sign_up()
    options = bob.options("/api/passkeys/register/options")
    problem(ann.post("/api/passkeys/register", {"credential": Authenticator(
        ann.origin).create(options)}), 400, "challenge is unknown")
    # a registration from another origin, for another relying party
    for kw in ({"origin": "http://evil.example"}, {"rp_id": "evil.example"}):
        options = ann.options("/api/passkeys/register/options")
        problem(ann.post("/api/passkeys/register", {"credential": Authenticator(
            ann.origin).create(options, **kw)}), 400, "not accepted", "nothing was added")
    # nothing of all that changed Ann's passkeys: one, used once
    mine = ann.mine()["passkeys"]
    assert [p["id"] for p in mine] == [made["id"]] and mine[0]["last_used"] is not None
    for c in (guest, bob):
        c.close()


def test_a_credential_registered_twice_is_refused(server: Server, ann: Browser) -> None:
    auth = Authenticator(ann.origin)
    options = ann.options("/api/passkeys/register/options")
    credential = auth.create(options)
    assert ann.post("/api/passkeys/register", {"credential": credential}).status_code == 201
    # the same credential id again, answering a new challenge (another account's too)
    cred_id = next(iter(auth.keys))
    for b in (ann, Browser(server)):
        if not b.csrf:
            b.sign_up()
        options = b.options("/api/passkeys/register/options")
        copy = Authenticator(ann.origin)
        answer = copy.create(options)
        # the copy's credential under the registered id: authenticator data rebuilt
        key = next(iter(copy.keys.values()))
        numbers = key.private.public_key().public_numbers()
        cose = cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                     -3: numbers.y.to_bytes(32, "big")})
        rp = options["publicKey"]["rp"]["id"]
        auth_data = (hashlib.sha256(rp.encode()).digest() + bytes([UP | UV | AT])
                     + bytes(4) + bytes(16) + len(cred_id).to_bytes(2, "big") + cred_id + cose)
        answer["id"] = answer["rawId"] = b64u(cred_id)
        answer["response"]["attestationObject"] = b64u(cbor({"fmt": "none", "attStmt": {},
                                                             "authData": auth_data}))
        problem(b.post("/api/passkeys/register", {"credential": answer}), 409,
                "registered already")
    assert len(ann.mine()["passkeys"]) == 1


def test_the_signature_counter_must_move_forward(server: Server, ann: Browser) -> None:
    auth = Authenticator(ann.origin)
    made = ann.add_passkey(auth)
    guest = Browser(server)
    assert guest.sign_in(auth, count=5).status_code == 200
    used = _count(ann, made["id"])
    guest.http.cookies.clear()
    for count in (5, 3, 0):  # the same or lower: a copy of the key may be in use
        r = guest.sign_in(auth, count=count)
        problem(r, 401, "counter went back", f"{count} after 5")
        assert "set-cookie" not in r.headers
    assert _count(ann, made["id"]) == used  # nothing recorded
    assert guest.sign_in(auth, count=6).status_code == 200
    # an authenticator that keeps no counter (always 0) signs in again and again
    zero = Authenticator(ann.origin, step=0)
    ann.add_passkey(zero)
    for _ in range(3):
        guest.http.cookies.clear()
        assert guest.sign_in(zero).status_code == 200
    # but once it said 1, it may not go back to 0
    assert guest.sign_in(zero, count=1).status_code == 200
    problem(guest.sign_in(zero, count=0), 401, "counter went back")
    guest.close()


def test_changes_need_the_csrf_token_and_a_session(server: Server, ann: Browser) -> None:
    auth = Authenticator(ann.origin)
    made = ann.add_passkey(auth)
    options = ann.options("/api/passkeys/register/options")
    credential = Authenticator(ann.origin).create(options)
    for method, path, body in (("POST", "/api/passkeys/register/options", None),
                               ("POST", "/api/passkeys/register", {"credential": credential}),
                               ("PATCH", f"/api/me/passkeys/{made['id']}", {"name": "X"}),
                               ("DELETE", f"/api/me/passkeys/{made['id']}", None),
                               ("POST", "/api/passkeys/confirm/options", None)):
        problem(ann.request(method, path, csrf=False, json=body), 403, "X-CSRF-Token")
        # without a session: 401
        problem(Browser(server).request(method, path, json=body), 401, "not signed in")
    problem(Browser(server).http.get("/api/me/passkeys"), 401, "not signed in")
    # nothing changed; the challenge was not taken by the refused answer
    mine = ann.mine()["passkeys"]
    assert [(p["id"], p["name"]) for p in mine] == [(made["id"], made["name"])]
    assert ann.post("/api/passkeys/register", {"credential": credential}).status_code == 201


def test_oversize_and_malformed_input_is_a_clear_4xx(server: Server, ann: Browser) -> None:
    auth = Authenticator(ann.origin)
    ann.add_passkey(auth)
    options = ann.options("/api/passkeys/signin/options")
    good = auth.get(options)

    def variant(change: Any) -> dict[str, Any]:
        copy = json.loads(json.dumps(good))
        change(copy)
        return copy

    cases: list[tuple[Any, int, tuple[str, ...]]] = [
        (variant(lambda c: c.update(id="A" * 1401)), 422, ("id", "1400")),
        (variant(lambda c: c.update(rawId="not base64!")), 422, ("rawId",)),
        (variant(lambda c: c["response"].update(clientDataJSON="A" * 4097)), 422,
         ("clientDataJSON", "4096")),
        (variant(lambda c: c["response"].update(signature="A" * 1025)), 422, ("signature",)),
        (variant(lambda c: c["response"].update(authenticatorData="")), 422,
         ("authenticatorData",)),
        (variant(lambda c: c["response"].update(userHandle="A" * 89)), 422, ("userHandle",)),
        (variant(lambda c: c["response"].update(transports=["usb"] * 11)), 422,
         ("transports",)),
        (variant(lambda c: c.update(type="password")), 422, ("type",)),
        (variant(lambda c: c.update(admin=True)), 422, ("admin",)),
        (variant(lambda c: c["response"].update(clientDataJSON=b64u(b"not json"))), 400,
         ("clientDataJSON", "not JSON")),
        (variant(lambda c: c["response"].update(clientDataJSON=b64u(b'{"type": 1}'))), 400,
         ("names no challenge",)),
        (variant(lambda c: c["response"].update(clientDataJSON="A")), 400, ("base64url",)),
        (variant(lambda c: c["response"].update(clientDataJSON=b64u(
            b'{"challenge": "' + b"A" * 190 + b'", "challenge": "B"}'))), 400, ("repeats the key",)),
    ]
    for credential, status, words in cases:
        r = ann.post("/api/passkeys/signin", {"credential": credential})
        problem(r, status, *words)
    problem(ann.post("/api/passkeys/signin", {"credential": good, "more": 1}), 422, "more")
    problem(ann.post("/api/passkeys/signin", {}), 422, "credential")
    problem(ann.post("/api/passkeys/signin", [1, 2]), 422)
    big = variant(lambda c: c["clientExtensionResults"].update(x="A" * 600_000))
    problem(ann.post("/api/passkeys/signin", {"credential": big}), 413, "524288")
    problem(ann.post("/api/passkeys/signup/options", {"username": "a b"}), 422, "username")
    problem(ann.post("/api/passkeys/register", {"credential": good}), 400,
            "attestationObject")
    # after all that, the good answer still signs in (its challenge was never taken)
    assert ann.post("/api/passkeys/signin", {"credential": good}).status_code == 200


def test_an_account_has_at_most_20_passkeys(server: Server, ann: Browser) -> None:
    for _ in range(20):  # twenty devices
        ann.add_passkey(Authenticator(ann.origin))
    problem(ann.post("/api/passkeys/register/options"), 409, "20 passkeys", "remove one")
    assert len(ann.mine()["passkeys"]) == 20


def test_passkeys_need_a_host_name_not_an_address(server: Server, ann: Browser) -> None:
    at_address = Browser(server, host=f"127.0.0.1:{server.port}")
    at_address.http.cookies.update(ann.http.cookies)
    at_address.csrf = ann.csrf
    for path in ("/api/passkeys/register/options", "/api/passkeys/signin/options"):
        problem(at_address.post(path), 400, "not the address 127.0.0.1", "localhost",
                "MEEPLE_RP_ID")
    at_address.close()


def test_sign_ins_are_limited_and_the_relying_party_can_be_set(limited: Server) -> None:
    """Behind a proxy: MEEPLE_RP_ID and MEEPLE_RP_ORIGIN say the public name, whatever Host
    the proxy sends. Passkey sign-ins count with MEEPLE_RATE_SIGNIN (4 a minute here)."""
    site = "https://meeple.example.org"
    ann = Browser(limited, host="meeple.example.org")
    ann.sign_up()
    auth = Authenticator(site)
    options = ann.options("/api/passkeys/register/options")
    assert options["publicKey"]["rp"]["id"] == "meeple.example.org"
    # the proxy's own origin (http, the Host it sends) is not the site's
    problem(ann.post("/api/passkeys/register", {"credential": Authenticator(
        "http://meeple.example.org").create(options)}), 400, "origin")
    ann.add_passkey(auth)
    c = Browser(limited, host="meeple.example.org", address="127.0.0.60")
    assert c.sign_in(auth).status_code == 200  # 1
    options = c.options("/api/passkeys/signin/options")  # 2
    problem(c.post("/api/passkeys/signin", {"credential": auth.get(
        options, origin="http://evil.example")}), 401, "origin")  # 3: a refusal counts
    assert c.sign_in(auth).status_code == 200  # 4
    r = c.post("/api/passkeys/signin/options")
    problem(r, 429, "MEEPLE_RATE_SIGNIN", "your address")
    assert int(r.headers["Retry-After"]) >= 1
    # another address is not held back
    other = Browser(limited, host="meeple.example.org", address="127.0.0.61")
    assert other.sign_in(auth).status_code == 200
    for b in (ann, c, other):
        b.close()


def test_relying_party_settings_are_checked() -> None:
    ok = Settings.from_env({"MEEPLE_RP_ID": "Example.ORG",
                            "MEEPLE_RP_ORIGIN": "https://meeple.example.org, "
                                                "https://example.org:8443"}).accounts
    assert ok.rp_id == "example.org"
    assert ok.rp_origins == ("https://meeple.example.org", "https://example.org:8443")
    assert Settings.from_env({"MEEPLE_RP_ORIGIN": "https://a.example/"}).accounts.rp_origins == \
        ("https://a.example",)
    for env, words in (({"MEEPLE_RP_ID": "127.0.0.1"}, ("MEEPLE_RP_ID", "not an IP")),
                       ({"MEEPLE_RP_ID": "a b"}, ("MEEPLE_RP_ID", "host name")),
                       ({"MEEPLE_RP_ORIGIN": "meeple.example.org"}, ("MEEPLE_RP_ORIGIN",)),
                       ({"MEEPLE_RP_ORIGIN": "http://192.0.2.7:8000"}, ("IP address",)),
                       ({"MEEPLE_RP_ID": "example.org",
                         "MEEPLE_RP_ORIGIN": "https://example.com"}, ("not on",))):
        with pytest.raises(ValueError) as refused:
            Settings.from_env(env)
        for word in words:
            assert word in str(refused.value), (word, str(refused.value))


def test_challenges_are_single_use_expire_and_are_capped(tmp_path: Path) -> None:
    """The store's side (SQLite here; the ceremonies above run on both stores)."""
    store = Store(sqlite_url(tmp_path / "c.db"))
    store.migrate()
    keys = Passkeys(store)
    later = datetime.now(UTC) + timedelta(minutes=5)
    keys.new_challenge(b"one", "signin", later, cap=3)
    keys.new_challenge(b"two", "register", later, account_id="a1", cap=3)
    keys.new_challenge(b"old", "signin", datetime.now(UTC) - timedelta(seconds=1), cap=3)
    assert keys.take_challenge(b"one", "register") is None  # given for another purpose
    taken = keys.take_challenge(b"one", "signin")
    assert taken is not None and taken.purpose == "signin"
    assert keys.take_challenge(b"one", "signin") is None  # once only
    assert keys.take_challenge(b"old", "signin") is None  # expired
    got = keys.take_challenge(b"two", "register")
    assert got is not None and got.account_id == "a1"
    for i in range(3):
        keys.new_challenge(bytes([i]), "signin", later, cap=3)
    with pytest.raises(TooManyChallenges, match="at most 3"):
        keys.new_challenge(b"more", "signin", later, cap=3)
    store.close()


def test_serve_refuses_a_relying_party_that_cannot_be_one() -> None:
    from typer.testing import CliRunner

    from meeple.cli import app

    for var, value, words in (("MEEPLE_RP_ID", "192.0.2.7", "not an IP"),
                              ("MEEPLE_RP_ORIGIN", "ftp://x.example", "origins")):
        result = CliRunner().invoke(app, ["serve", "--port", "1"], env={var: value})
        assert result.exit_code == 2, result.output
        assert words in result.output and var in result.output
