"""Passkeys (WebAuthn, through the ``webauthn`` package): the second way to sign in, added when signed in.

Why these choices: a passkey is a discoverable credential with user verification
(the device asks for a fingerprint, face or PIN), so signing in needs no name at
all. Each challenge is 256 random bits handed out once; the store keeps its hash
with whose registration it is for, so any server process may receive the answer,
and an answer is accepted once, within ``CHALLENGE_S``. The relying party is the
public address's host (``--public-url``), else the host the page was loaded from.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlsplit

import webauthn
from webauthn.helpers import (
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidJSONStructure, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .service import Accounts, hash_secret
from .store import AccountRow, Duplicate

CHALLENGE_S = 300.0  # seconds a challenge may be answered in


class PasskeyError(Exception):
    """A passkey answer refused; the message says why, for the person."""


def relying_party(origin: str, scheme: str, host: str) -> tuple[str, str]:
    """``(rp_id, origin)``: the configured origin's, else the page's own (scheme and Host header)."""
    page = origin or f"{scheme}://{host}"
    return urlsplit(page).hostname or "", page


def challenge_of(client_data_json: bytes) -> str:
    """The challenge (base64url text) a browser's answer signs, read from its client data."""
    try:
        value = json.loads(client_data_json).get("challenge")
    except (ValueError, AttributeError):
        value = None
    if not isinstance(value, str):
        raise PasskeyError("the answer holds no challenge")
    return value


class Passkeys:
    """Registering passkeys and signing in with them, on the accounts' store."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.store = accounts.store

    async def _run(self, call: Any, *args: Any) -> Any:
        return await self.accounts.hub.writer.run(call, *args)

    async def _remember(self, challenge: bytes, account_id: str | None) -> None:
        await self._run(self.store.add_challenge, hash_secret(bytes_to_base64url(challenge)), account_id,
                        time.time() + CHALLENGE_S)

    async def _take(self, client_data_json: bytes) -> tuple[bytes, str | None]:
        """The challenge an answer signs, used up, and whose registration it was for (None: a sign-in)."""
        text = challenge_of(client_data_json)
        found = await self._run(self.store.take_challenge, hash_secret(text))
        if found is None:
            raise PasskeyError("the challenge is unknown, used or expired; try again")
        return webauthn.base64url_to_bytes(text), found[0]

    async def registration_options(self, me: AccountRow, rp: tuple[str, str]) -> dict[str, Any]:
        """What the browser's ``navigator.credentials.create`` needs, as JSON."""
        known = [PublicKeyCredentialDescriptor(id=webauthn.base64url_to_bytes(p.id))
                 for p in await self._run(self.store.passkeys_of, me.id)]
        options = webauthn.generate_registration_options(
            rp_id=rp[0], rp_name="Spots", user_name=me.name, user_id=me.id.encode(), user_display_name=me.name,
            exclude_credentials=known, authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.REQUIRED))
        await self._remember(options.challenge, me.id)
        return dict(json.loads(webauthn.options_to_json(options)))

    async def register(self, me: AccountRow, answer: Any, rp: tuple[str, str]) -> None:
        """Check the browser's new credential and keep its public key (raises PasskeyError)."""
        try:
            credential = parse_registration_credential_json(answer)
        except (InvalidJSONStructure, ValueError, TypeError) as exc:
            raise PasskeyError(f"the answer is not a passkey registration ({exc})") from None
        challenge, account_id = await self._take(credential.response.client_data_json)
        if account_id != me.id:
            raise PasskeyError("this challenge was handed to another account")
        try:
            verified = webauthn.verify_registration_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp[0], expected_origin=rp[1],
                require_user_verification=True)
        except InvalidRegistrationResponse as exc:
            raise PasskeyError(f"the passkey could not be checked ({exc})") from None
        try:
            await self._run(self.store.add_passkey, bytes_to_base64url(verified.credential_id), me.id,
                            bytes_to_base64url(verified.credential_public_key), verified.sign_count)
        except Duplicate:
            raise PasskeyError("this passkey is registered already") from None

    async def sign_in_options(self, rp: tuple[str, str]) -> dict[str, Any]:
        """What ``navigator.credentials.get`` needs: any passkey of this site (discoverable, verified)."""
        options = webauthn.generate_authentication_options(rp_id=rp[0],
                                                           user_verification=UserVerificationRequirement.REQUIRED)
        await self._remember(options.challenge, None)
        return dict(json.loads(webauthn.options_to_json(options)))

    async def sign_in(self, answer: Any, rp: tuple[str, str]) -> AccountRow:
        """The account whose passkey signed this challenge (raises PasskeyError)."""
        try:
            credential = parse_authentication_credential_json(answer)
        except (InvalidJSONStructure, ValueError, TypeError) as exc:
            raise PasskeyError(f"the answer is not a passkey sign-in ({exc})") from None
        challenge, account_id = await self._take(credential.response.client_data_json)
        if account_id is not None:
            raise PasskeyError("this challenge was handed out for a registration")
        key = await self._run(self.store.passkey, bytes_to_base64url(credential.raw_id))
        if key is None:
            raise PasskeyError("this passkey is not registered here (it may have been removed)")
        handle = credential.response.user_handle
        if handle is not None and handle != key.account.encode():
            raise PasskeyError("this passkey names another account")
        try:
            verified = webauthn.verify_authentication_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp[0], expected_origin=rp[1],
                credential_public_key=webauthn.base64url_to_bytes(key.public_key),
                credential_current_sign_count=key.sign_count, require_user_verification=True)
        except InvalidAuthenticationResponse as exc:
            raise PasskeyError(f"the passkey's signature could not be checked ({exc})") from None
        await self._run(self.store.passkey_used, key.id, verified.new_sign_count)
        account: AccountRow | None = await self._run(self.store.account, key.account)
        if account is None or account.disabled:
            raise PasskeyError("this account is disabled by the server's host")
        return account
