"""helpers/foundations/sources.py: the sources' printed inputs, kept once and read-only."""

from __future__ import annotations

from helpers.foundations import sources


def test_every_constant_is_immutable_or_a_fresh_reading():
    for name in sources.__all__:
        value = getattr(sources, name)
        assert isinstance(value, (tuple, dict)), name
        if isinstance(value, dict):
            assert all(isinstance(v, (int, float, tuple)) for v in value.values()), name


def test_the_auction_and_its_prices_are_the_surveys():
    bids, prices = sources.SURVEY_AUCTION_BIDS, sources.SURVEY_AUCTION_PRICES
    assert len(bids) == 3 and len(prices) == 4
    assert list(prices) == sorted(prices) and set(bids) <= set(prices)


def test_the_notes_randomised_response_example_is_nine_ones_of_eighteen():
    example = sources.NOTES_RR_EXAMPLE
    assert example == {"n": 18, "alpha": 0.5, "ones": 9}


def test_the_closeness_example_gives_every_record_a_class_and_a_value():
    example = sources.CLOSENESS_EXAMPLE
    assert len(example["classes"]) == len(example["sensitive"]) == 12
    assert set(example["sensitive"]) == {"Linux", "macOS", "Windows"}
