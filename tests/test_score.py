"""MLPerf Training's scoring rule, one implementation (measuring/score.py) for `openrecipes measure`
and the MLPerf importer: the mean without the fastest and the slowest, a run that missed the target
dropped as the slowest, more than one such run no score."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from test_measure import _event, run

from openrecipes.importers import mlperf_recipes
from openrecipes.measuring.score import Score, mlperf_score


def test_the_fastest_and_the_slowest_are_dropped_and_a_missed_target_is_the_slowest() -> None:
    assert mlperf_score([30.0, 10.0, 20.0, 40.0, 25.0], [True] * 5) == Score(25.0, (2, 4, 0), 1, 3)
    # The quickest run missed the target: it is the slowest, whatever its time.
    assert mlperf_score([5.0, 10.0, 20.0, 30.0], [False, True, True, True]) == Score(25.0, (2, 3), 1, 0)
    assert mlperf_score([12.0, 14.0], [True, True]) == Score(13.0, (0, 1), None, None)


@pytest.mark.parametrize(
    ("minutes", "reached", "why"),
    [
        ([1.0, 2.0, 3.0, 4.0], [False, True, False, True], "2 runs did not reach the target"),
        ([1.0, 2.0], [True, False], "a run did not reach the target, and with fewer than three runs none is dropped"),
        ([], [], "no run"),
    ],
)
def test_runs_that_make_no_score_say_why(minutes: list[float], reached: list[bool], why: str) -> None:
    scored = mlperf_score(minutes, reached)
    assert isinstance(scored, str) and scored.startswith(why)


def test_the_importer_counts_the_runs_measure_counts() -> None:
    assert mlperf_recipes.score.mlperf_score is mlperf_score


def _log(tmp_path: Path, name: str, minutes: int, status: str) -> Path:
    head = _event("submission_benchmark", 1).replace('"value": null', '"value": "llama2_70b_lora"')
    end = 10 + minutes * 60_000
    text = head + _event("run_start", 10) + _event("eval_accuracy", end - 5).replace("null", "0.92")
    path = tmp_path / name
    path.write_text(text + _event("run_stop", end, status=status), encoding="utf-8")
    return path


def test_measure_drops_a_run_that_missed_its_target_as_the_slowest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = [_log(tmp_path, "a.txt", 20, "success"), _log(tmp_path, "b.txt", 5, "aborted")]
    logs += [_log(tmp_path, "c.txt", 30, "success"), _log(tmp_path, "d.txt", 25, "success")]
    code, out, err = run(capsys, "measure", *logs)
    assert code == 0, err
    trained = yaml.safe_load(out)["result"]["time_to_train"]
    assert (trained["minutes"], trained["runs_counted"]) == (27.5, 2)  # c and d: a is the fastest, b the slowest
    assert f"note: {logs[1]} did not reach the target and is dropped as the slowest (MLPerf's rule)" in err
    # Two that missed it: no score, each located.
    logs.append(_log(tmp_path, "e.txt", 22, "aborted"))
    code, out, err = run(capsys, "measure", *logs)
    assert code == 1 and err.endswith("2 problems: no figure printed\n")
    assert f"{logs[1]}:4:1: the quality target was not reached" in out + err
    assert f"{logs[4]}:4:1: the quality target was not reached" in out + err


def test_a_log_without_tracked_stats_is_measured_over_its_run_as_the_importer_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from openrecipes.measuring import compute, mllog

    head = _event("submission_benchmark", 1).replace('"value": null', '"value": "llama2_70b_lora"')
    text = head + _event("run_start", 0) + _event("eval_start", 600_000) + _event("eval_stop", 660_000)
    text += _event("eval_accuracy", 700_000).replace("null", "0.92")
    text += _event("run_stop", 1_260_000, status="success", samples_count=3_000)
    path = tmp_path / "result_0.txt"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "measure", path, "--gpus", "8", "--seq-length", "8192")
    assert code == 0, err
    # 3,000 samples × 8,192 tokens over 1,260 s less the 60 s evaluation, ÷ 8 GPUs.
    assert yaml.safe_load(out)["result"]["tokens_per_s_per_gpu"] == round(3000 * 8192 / 1200 / 8, 1)
    log, problems = mllog.parse_mllog(text, str(path))
    assert not problems and log is not None
    assert compute.training_rate(log) == compute.TrainingRate(3000, 1200.0, 0, True)
