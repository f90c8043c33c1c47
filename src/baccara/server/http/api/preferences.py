"""A player's preferences for the web casino: sound on or off, its volume, the language.

The page keeps them in the browser at once and here when the player is signed in, so
that they follow the player to another browser; the copy here wins when they sign in.
"""

from __future__ import annotations

from typing import Literal, cast

from fastapi import APIRouter
from pydantic import BaseModel, Field, StrictBool, StrictInt

from baccara.server.db.models import Preference
from baccara.server.errors import AuthError
from baccara.server.http.api.deps import CasinoDep, UserDep
from baccara.server.http.api.errors import BAD_BODY, refusals
from baccara.server.http.api.schemas import Strict

router = APIRouter(tags=["players"])

Language = Literal["en", "zh-Hans", "zh-Hant"]
"""The languages the web casino's pages are written in (its catalogs, ``web/i18n/``)."""

DEFAULTS = {"sound": False, "volume": 60, "language": None}
"""A player's preferences before they change any: silent, the browser's language."""


class PreferencesOut(BaseModel):
    sound: bool = Field(description="Whether the casino's sounds play")
    volume: int = Field(ge=0, le=100, description="Their volume, 0 to 100")
    language: Language | None = Field(description="The pages' language; null for the browser's own")


class PreferencesIn(Strict):
    """Any of the preferences; those left out stay as they are."""

    sound: StrictBool = False
    volume: StrictInt = Field(default=60, ge=0, le=100)
    language: Language | None = None


def _answer(row: Preference | None) -> PreferencesOut:
    if row is None:
        return PreferencesOut.model_validate(DEFAULTS)
    language = cast(Language | None, row.language)  # only a Language is ever written
    return PreferencesOut(sound=row.sound, volume=row.volume, language=language)


@router.get("/api/me/preferences", response_model=PreferencesOut, responses=refusals(AuthError))
def my_preferences(user: UserDep, casino: CasinoDep) -> PreferencesOut:
    """The player's preferences: the defaults (sound off, volume 60, no language) until
    they change one."""
    with casino.db.read() as session:
        return _answer(session.get(Preference, user.id))


@router.put("/api/me/preferences", response_model=PreferencesOut,
            responses=refusals(AuthError, *BAD_BODY))  # fmt: skip
def set_preferences(body: PreferencesIn, user: UserDep, casino: CasinoDep) -> PreferencesOut:
    """Change any of the player's preferences (``language: null`` is the browser's own);
    the answer is all of them as they are now. A value out of bounds changes nothing."""
    with casino.db.write() as session:
        row = session.get(Preference, user.id)
        if row is None:
            row = Preference(user_id=user.id, **DEFAULTS)
            session.add(row)
        for name in body.model_fields_set:
            setattr(row, name, getattr(body, name))
        session.flush()
        return _answer(row)
