"""The lobby's house rules for people (issue 11): grouped (widow, poker, the Rummoli phase,
end of game), each choice by its name with a line on what the chosen word does, and the
printed rule sets as one-click buttons that set the rules below."""

from __future__ import annotations

from playwright.sync_api import Browser

from e2e.conftest import LiveServer
from e2e.pages import desktop_page


def test_house_rules_are_grouped_named_and_presets_are_one_click(
    browser: Browser, live_server: LiveServer
) -> None:
    with desktop_page(browser) as page:
        page.goto(live_server.url + "/")
        page.get_by_test_id("rule-group-0").wait_for(state="attached")
        page.locator("details.rules summary").click()
        legends = page.locator(".rule-group legend").all_inner_texts()
        assert legends[:5] == ["Chips and board", "Widow", "Poker", "Rummoli phase", "End of game"]
        widow = page.get_by_test_id("rule-widow")
        # Each word by its name, and the chosen word's line beside it.
        assert widow.locator("option").all_inner_texts() == [
            "Exchange or auction",
            "Exchange only",
            "No widow",
        ]
        line = page.get_by_test_id("rule-widow-value-help")
        assert "the others bid for it" in line.inner_text()
        widow.select_option("none")
        assert line.inner_text() == "The widow stays out of play, face down."
        # A printed rule set, one click: the rules below follow, and it is shown pressed.
        poker = page.get_by_test_id("rule-poker")
        assert poker.input_value() == "betting"
        page.get_by_test_id("preset-rulebook_method_1").click()
        assert poker.input_value() == "showdown"
        assert (
            "Everyone shows five cards" in page.get_by_test_id("rule-poker-value-help").inner_text()
        )
        assert not page.get_by_test_id("rule-pay_card_blocks_exchange").is_checked()
        assert (
            page.get_by_test_id("preset-rulebook_method_1").get_attribute("aria-pressed") == "true"
        )
        assert "showdown" in page.get_by_test_id("preset-help").inner_text()
        # The house defaults again: every rule back, the widow too.
        page.get_by_test_id("preset-encyclopedia").click()
        assert poker.input_value() == "betting"
        assert widow.input_value() == "exchange_or_auction"
        assert page.get_by_test_id("rule-pay_card_blocks_exchange").is_checked()
