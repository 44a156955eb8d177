"""``rummoli simulate`` in French and Russian: the report with no English left, CLDR
plurals, the language's digits, widths that survive longer words; the English report
exactly as before, and the JSON file the same in every language.

The fixed-seed runs are :mod:`sim_report_runs`; their English reports, as the English
code printed them before the report was translated, are ``tests/sim_reports/*.en.txt``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console

import sim_report_runs as runs
from rummoli import i18n
from rummoli.cli import version_text
from rummoli.sim import command, messages, report
from rummoli.sim.game import simulation_part
from rummoli.sim.rummy import report as rummy_report
from rummoli.sim.stops import report as rummoli_report
from test_tui_languages import english_left, run_cli

GOLDEN = Path(__file__).parent / "sim_reports"


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.fixture(scope="module")
def figures() -> dict[str, tuple[dict[str, Any], dict[str, Any], Any]]:
    """Every fixed run's figures, played once for the module (under a second)."""
    return {name: runs.figures(name) for name in runs.RUNS}


def render(run: tuple[dict[str, Any], dict[str, Any], Any], lang: str, width: int) -> str:
    result, timing, part = run
    with i18n.language(lang):
        console = Console(width=width, color_system=None, highlight=False, record=True)
        with console.capture() as captured:
            part.print_report(console, result, timing)
    return captured.get()


def typed(result: dict[str, Any]) -> str:
    """What the report shows as it is typed (``--bots random``, ``--rule poker=showdown``,
    ``--backend local``), taken out before looking for English words."""
    config = result["config"]
    words = [
        *config["bots"],
        *config["labels"],
        *(v for v in config["rules"].values() if isinstance(v, str)),
    ]
    words += ["local"]
    return "|".join(sorted({re.escape(w) for w in words}, key=len, reverse=True))


@pytest.mark.parametrize("name", list(runs.RUNS))
def test_the_english_report_is_what_it_was(name: str, figures: Any) -> None:
    assert render(figures[name], "en", runs.WIDTH) == (GOLDEN / f"{name}.en.txt").read_text(
        encoding="utf-8"
    )


@pytest.mark.parametrize("lang", ["fr", "ru"])
@pytest.mark.parametrize("name", list(runs.RUNS))
def test_the_report_speaks_the_language(name: str, lang: str, figures: Any) -> None:
    text = render(figures[name], lang, runs.WIDTH)
    english = (GOLDEN / f"{name}.en.txt").read_text(encoding="utf-8")
    shown = re.sub(typed(figures[name][0]), " ", text)
    assert english_left(re.sub(typed(figures[name][0]), " ", english), lang)  # the check bites
    assert english_left(shown, lang) == []
    # Each table's title and header of the English report is gone (a column header that
    # is also a code, none here, would be the only exception).
    titles = [line.strip() for line in english.splitlines() if line and line[0].isalpha()]
    for title in titles[1:]:
        assert title.split(":")[0] not in text, title
    # Figures in the language's digits: a decimal comma, a no-break space before %.
    assert re.search(r"\d,\d", text) and not re.search(r"\d\.\d", text)
    assert "\xa0%" in text and not re.search(r"\d%", text)


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        (
            "ru",
            {
                1: "1 раунд в 1 игре (1 завершена)",
                2: "2 раунда в 2 играх (2 завершены)",
                5: "5 раундов в 5 играх (5 завершено)",
                21: "21 раунд в 21 игре (21 завершена)",
                1234: "1\xa0234 раунда в 1\xa0234 играх (1\xa0234 завершены)",
            },
        ),
        (
            "fr",
            {
                0: "0 manche en 0 partie (0 terminée)",
                1: "1 manche en 1 partie (1 terminée)",
                2: "2 manches en 2 parties (2 terminées)",
                1234: "1\u202f234 manches en 1\u202f234 parties (1\u202f234 terminées)",
            },
        ),
    ],
)
def test_the_headline_s_plurals_are_cldr_s(lang: str, counts: dict[int, str], figures: Any) -> None:
    result = figures["rummoli"][0]
    for n, expected in counts.items():
        changed = {
            **result,
            "rounds": n,
            "games": {**result["games"], "started": n, "finished": n},
            "config": {**result["config"], "seats": 5},
        }
        with i18n.language(lang):
            line = rummoli_report.headline(changed, {}).plain
        assert line.startswith(expected), line
        assert ("5 мест за столом" if lang == "ru" else "à une table de 5 places") in line


def test_the_speed_line_s_plurals(figures: Any) -> None:
    result, timing, _ = figures["rummy"]
    for jobs, rate, expected in [
        (1, 1.2, "0,2 с, 1 раздача/с (local, 1 задача)."),
        (3, 3.0, "0,2 с, 3 раздачи/с (local, 3 задачи)."),
        (5, 1234.5, "0,2 с, 1\xa0234 раздачи/с (local, 5 задач)."),
        (11, 25.0, "0,2 с, 25 раздач/с (local, 11 задач)."),
    ]:
        run = {**timing, "seconds": 0.25, "jobs": jobs, "rounds_per_second": rate}
        with i18n.language("ru"):
            line = rummy_report.headline(result, run).plain.splitlines()[-1]
        assert line == expected


@pytest.mark.parametrize("name", list(runs.RUNS))
def test_the_tables_survive_longer_words(name: str, figures: Any) -> None:
    """At every width where the English report is whole, the French and Russian ones are:
    no line too long, no word cut short with an ellipsis (at 80 columns the English tables
    of six columns and more are cut themselves; at 110, a file's width, nothing is)."""

    def whole(text: str) -> bool:
        return all(len(line) <= width and "…" not in line for line in text.splitlines())

    checked = []
    for width in (80, 90, 110):
        if whole(render(figures[name], "en", width)):
            checked.append(width)
            for lang in ("fr", "ru"):
                assert whole(render(figures[name], lang, width)), (lang, width)
    assert runs.WIDTH in checked


Cli = tuple[pytest.MonkeyPatch, pytest.CaptureFixture[str]]


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return monkeypatch, capsys


def invoke(cli: Cli, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``rummoli ARGS`` through its entry point (``--lang`` is read there)."""
    return run_cli(*cli, *args, env=env)


def test_the_json_file_is_the_same_in_every_language(cli: Cli, tmp_path: Path) -> None:
    files = {}
    for lang in ("en", "fr", "ru"):
        path = tmp_path / f"{lang}.json"
        code, out = invoke(
            cli, "simulate", "--game", "rummy", "--hands", "8", "-j", "1", "--seed", "4",
            "--json", str(path), "--lang", lang,
        )  # fmt: skip
        assert code == 0, out
        data = json.loads(path.read_text(encoding="utf-8"))
        for timed in ("seconds", "rounds_per_second"):
            data["run"].pop(timed)
        files[lang] = data
    assert files["fr"] == files["en"] == files["ru"]
    assert files["en"]["positions"][1]["position"] == "second (dealer)"  # English, for programs


def test_the_command_speaks_lang_and_the_environment(cli: Cli, tmp_path: Path) -> None:
    chart_dir = tmp_path / "charts"
    code, out = invoke(
        cli, "simulate", "--rounds", "20", "--bots", "random,random,random", "-j", "1",
        "--json", str(tmp_path / "f.json"), "--plot", str(chart_dir), "--lang", "ru",
    )  # fmt: skip
    assert code == 0, out
    assert "20 раундов в" in out and "Банки доски" in out
    assert f"данные записаны в {tmp_path / 'f.json'}" in out
    assert out.count("график записан в") == 3
    code, out = invoke(
        cli, "simulate", "--game", "rummy", "--hands", "4", "-j", "1", env={"LANG": "fr_CA.UTF-8"}
    )
    assert code == 0, out
    assert out.startswith("Rami\u202f: 4 donnes en ")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--hands", "3", "--rounds", "3"], "--hands и --rounds — одно и то же"),
        (["--rounds", "3", "--games", "3"], "укажите --rounds или --games, но не оба"),
        (["--bots", "nobody"], "неизвестный уровень бота nobody для rummoli"),
        (["--bots", "random"], "укажите от 2 до 8 ботов"),
        (["--backend", "nope"], "неизвестный бэкенд 'nope'"),
        (["--address", "h:1"], "--address — адрес кластера Ray"),
        (["--game", "rummy", "--plot", "x"], "не рисуют графиков"),
        (["--game", "rummy", "--full-table"], "--full-table не для игры «Простой рамми»"),
        (["--preset", "nope"], "неизвестный печатный набор правил 'nope'"),
    ],
)
def test_the_simulator_s_errors_speak_the_language(
    cli: Cli, args: list[str], expected: str
) -> None:
    code, out = invoke(cli, "simulate", *args, "--lang", "ru")
    assert code == 2
    assert expected in " ".join(out.replace("│", " ").split())


def test_ray_s_errors_and_where_a_run_runs_are_translated() -> None:
    with i18n.language("fr"):
        assert messages.error("cannot start a local Ray: boom") == (
            "impossible de démarrer un Ray local\u202f: boom"
        )
        long = messages.error(
            "cannot reach the Ray cluster at h:1: Failed to connect. If the cluster uses token "
            "authentication, copy its token from the head node (`ray get-auth-token` there) "
            "into RAY_AUTH_TOKEN or ~/.ray/auth_token"
        )
        assert long.startswith(
            "impossible de joindre la grappe Ray à h:1\u202f: Failed to connect."
        )
        assert "Si la grappe utilise" in long
        assert messages.where_text("this process") == "ce processus"
    with i18n.language("ru"):
        assert messages.where_text("2 local processes") == "2 локальных процесса"
        assert messages.where_text("Ray, 5 CPUs on 1 node") == "Ray, 5 процессоров на 1 узле"
        assert messages.where_text("Ray, 2 CPUs on 3 nodes") == "Ray, 2 процессора на 3 узлах"
        assert messages.where_text("somewhere new") == "somewhere new"
    assert messages.where_text("Ray, 1 CPUs on 1 node") == "Ray, 1 CPUs on 1 node"


def test_the_progress_bar_speaks_the_language() -> None:
    part = simulation_part("rummy")
    with i18n.language("ru"):
        progress = command.make_progress(Console(), "rounds", part, 5)
        words = [getattr(column, "text_format", "") for column in progress.columns]
        assert "раздач" in words
        rate = command.RateColumn(part.rate)
        task: Any = SimpleNamespace(elapsed=2.0, fields={"rounds": 4})
        assert rate.render(task).plain == "2 раздачи/с"
        task = SimpleNamespace(elapsed=0.0, fields={})
        assert rate.render(task).plain == "- раздач/с"
    assert command.RateColumn().render(
        SimpleNamespace(elapsed=1.0, fields={"rounds": 1})
    ).plain == (  # type: ignore[arg-type]
        "1 rounds/s"
    )


def test_version_in_the_language() -> None:
    english = version_text()
    with i18n.language("fr"):
        french = version_text()
    assert english.startswith("rummoli ") and french.startswith("rummoli ")
    assert re.sub(r"\(.*\)", "", english) == re.sub(r"\(.*\)", "", french)
    assert english_left(french, "fr") == []
    assert english != french


def test_the_charts_speak_the_language(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, figures: Any
) -> None:
    pytest.importorskip("matplotlib")
    from rummoli.sim.stops import plots

    drawn: list[Any] = []
    make = plots._figure

    def keep(width: float, height: float) -> Any:
        drawn.append(make(width, height))
        return drawn[-1]

    monkeypatch.setattr(plots, "_figure", keep)
    result = figures["rummoli"][0]
    with i18n.language("ru"):
        plots.write_plots(result, tmp_path)
    texts: list[str] = []
    for figure in drawn:
        texts += [text.get_text() for text in figure.texts]
        for axes in figure.axes:
            texts += [axes.get_title(), axes.get_xlabel(), axes.get_ylabel()]
            texts += [text.get_text() for text in axes.texts]
            legend = axes.get_legend()
            if legend is not None:
                texts += [text.get_text() for text in legend.get_texts()]
    shown = re.sub(typed(result), " ", "\n".join(texts))
    assert "Фишки за одну игру" in shown and "Раунды между выплатами" in shown
    assert "150 раундов" in shown
    assert english_left(shown, "ru") == []


VALUES = [0.0, -0.0004, 2.675, 0.125, -1.5, 1234.5, -98765.4321, 1e6 + 0.005, 0.99951]


def test_english_figures_are_written_as_python_wrote_them() -> None:
    """The English cells are exactly the f-strings of before, rounding and grouping alike
    (Babel's own formatting rounds some halves the other way, and groups intervals)."""
    for value in VALUES:
        for digits in (1, 2, 3):
            assert report.number(value, digits) == f"{value:,.{digits}f}"
            assert report.signed(value, digits) == f"{value:+,.{digits}f}"
            assert report.interval([value, -value], digits, sign=True) == (
                f"[{value:+.{digits}f}, {-value:+.{digits}f}]"
            )
        share = value / 1000
        assert report.percent(share) == f"{100 * share:.1f}%"
    with i18n.language("ru"):
        assert report.number(-98765.4321, 1) == "-98\xa0765,4"
        assert report.interval([1234.5, 2.675], 2) == "[1234,50; 2,67]"  # the English digits
        assert report.percent(0.125) == "12,5\xa0%"
