"""A stake over the most any bet takes is refused with both amounts as money, thousands
separated, as every other refusal that names amounts says them."""

from __future__ import annotations

import pytest

from baccara.errors import InvalidBet
from baccara.money import MAX_STAKE_CENTS, validate_stake


def test_a_stake_over_the_maximum_is_refused_in_money() -> None:
    with pytest.raises(InvalidBet) as refused:
        validate_stake(MAX_STAKE_CENTS + 1)
    assert str(refused.value) == "a stake of 1,000,000.01 is over the maximum of 1,000,000.00"
    assert validate_stake(MAX_STAKE_CENTS) == MAX_STAKE_CENTS
