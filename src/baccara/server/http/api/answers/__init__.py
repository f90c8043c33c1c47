"""What each route answers, as the response models its OpenAPI schema documents, one
module an area (players, games, tables, rounds, protections, backoffice, health).

Each model lists the keys of the answer in the order the casino writes them, so an
answer serialised through it is the same bytes as the dictionary it was built from: a
key it did not name would be refused (``extra="forbid"``, a 500 a test sees at once),
never silently dropped. What is the game's own — a round's result and events, a
game's rule options, a tile game's seats — is typed as plain JSON values
(:data:`~pydantic.JsonValue`), which keep each value as it is.

A moment is seconds since the epoch as the casino's clock gave it (:data:`Seconds`):
a number, written as the clock wrote it.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, JsonValue

Seconds = Annotated[float | int, Field(description="Seconds since the epoch (UTC)")]
"""A moment: kept an integer if the clock gave one, so nothing is rewritten."""
Json = dict[str, JsonValue]


class Answer(BaseModel):
    """An answer of the API: every key it may have is named (see the module's docstring)."""

    model_config = ConfigDict(extra="forbid")
