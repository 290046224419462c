"""`openrecipes measure` and the log readers behind it, on real public logs (tests/fixtures/logs)
and on broken ones written here."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
import yaml
from conftest import REPO, copy_project

from openrecipes.cli import main
from openrecipes.measuring import mllog
from openrecipes.measuring.compute import Settings, cite, measure
from openrecipes.measuring.detect import read_log
from openrecipes.measuring.megatron import parse_megatron
from openrecipes.measuring.mllog import Where, parse_mllog
from openrecipes.measuring.torchtitan import parse_torchtitan
from openrecipes.reading.yamlwrite import set_in_place

LOGS = REPO / "tests/fixtures/logs"
V40 = LOGS / "mlperf-training-v4.0/62f111b7690f163b269f32e4f93dcaaa13717c9c"
NVIDIA = V40 / "NVIDIA/results/eos_ngc24.04_nemo/llama2_70b_lora/result_0.txt"
DELL = V40 / "Dell/results/XE9680x8H100-SXM-80GB/llama2_70b_lora/result_3.txt"  # held out: no recipe uses it
FUJITSU = V40 / "Fujitsu/results/GX2560M7_H100_SXM_80GBx4/llama2_70b_lora/result_0.txt"
GOOGLE = V40 / "Google/results/cloud-tpu-v5p-1024-maxtext/gpt3/result_0.txt"
GAUDI = V40 / "Intel-HabanaLabs/results/HLS-Gaudi2-PT/llama2_70b_lora/result_0.txt"
MEGATRON = LOGS / "megatron/megatron-lm-issue-756-iterations-71-73.log"
MEGATRON_EARLY = LOGS / "megatron/megatron-lm-issue-756-iterations-29-31.log"
MEGATRON_OLD = LOGS / "megatron/epfllm-megatron-llm-issue-11-iterations-122-125.log"
TITAN = LOGS / "torchtitan/torchtitan-pr-1437-steps-3-10.log"
TITAN_RANKS = LOGS / "torchtitan/torchtitan-pr-1884-ranks.log"
MLPERF_RECIPE = "recipes/llama-2-70b/h100/mlperf-4.0-nvidia-fp8-8gpu.yaml"


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def event_time(path: Path, key: str) -> int:
    """time_ms of the first event `key`, read with plain string handling (not the reader under test)."""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if f'"key": "{key}"' in line:
            return int(line.split('"time_ms": ')[1].split(",")[0])
    raise AssertionError(key)


# --- MLPerf -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [NVIDIA, DELL, FUJITSU, GOOGLE, GAUDI], ids=lambda p: p.parts[-4])
def test_every_mlperf_fixture_reads_without_a_problem_and_reaches_its_target(path: Path) -> None:
    log, problems = parse_mllog(path.read_bytes(), path.name)
    assert problems == ()
    assert log is not None
    timed = mllog.time_to_train(log)
    assert isinstance(timed, mllog.TimeToTrain)
    assert timed.milliseconds == event_time(path, "run_stop") - event_time(path, "run_start")
    verdict = mllog.verdict(log)
    assert verdict.reached, verdict.reason
    assert verdict.target is mllog.TARGETS[log.benchmark or ""]


def test_the_mllog_reader_keeps_each_events_line_and_what_mlperf_keys_say() -> None:
    log, _ = parse_mllog(NVIDIA.read_bytes(), "r0.txt")
    assert log is not None
    assert log.benchmark == "llama2_70b_lora"
    assert {key: event.value for key, event in log.submission.items()} == {
        "benchmark": "llama2_70b_lora",
        "org": "NVIDIA",
        "division": "closed",
        "status": "onprem",
        "platform": "1xNVIDIA DGX H100",
    }
    assert log.global_batch_size is not None and (log.global_batch_size.value, log.global_batch_size.at) == (
        8,
        Where("r0.txt", 11),
    )
    assert log.sequence_length is None  # the LoRA benchmark does not log it
    assert [event.at.line for event in log.throughput] == [25, 31, 37, 43, 49]
    assert log.status == "success"
    assert [round(e.value, 4) for e in log.evaluations] == [0.9374, 0.9317, 0.9367, 0.9277, 0.9233]  # type: ignore[arg-type]


def test_mllog_lines_behind_a_rank_prefix_and_among_the_launchers_output_are_read() -> None:
    fujitsu, problems = parse_mllog(FUJITSU.read_bytes(), "f.txt")
    assert problems == () and fujitsu is not None and len(fujitsu.events) == 52
    assert fujitsu.events[0].at.line > 1  # the launcher's output came first
    google, _ = parse_mllog(GOOGLE.read_bytes(), "g.txt")
    assert google is not None and google.sequence_length is not None and google.sequence_length.value == 2048


def test_measure_on_a_held_out_mlperf_log_prints_its_time_to_train_and_that_the_target_was_reached(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "measure", DELL, "--gpus", "8", "--seq-length", "8192")
    assert code == 0, err
    minutes = (event_time(DELL, "run_stop") - event_time(DELL, "run_start")) / 60000
    result = yaml.safe_load(out)["result"]
    assert result["time_to_train"] == {
        "minutes": round(minutes, 3),
        "quality_target": "eval loss 0.925",
        "scoring": "run_start to run_stop of one run; computed by openrecipes measure from the log",
    }
    assert round(minutes, 3) == 29.398
    assert (
        f"# time_to_train: {DELL}: 29.398 min from run_start (line 648) to run_stop (line 697); target: eval_accuracy"
        f" 0.923362 ({DELL}:695) meets the target eval loss 0.925, and run_stop ({DELL}:697) says 'success'"
        f" [{DELL}:648,697]" in out
    )


def test_measure_reproduces_the_hand_written_mlperf_recipe(capsys: pytest.CaptureFixture[str]) -> None:
    """The recipe's figures were computed by hand from the same log: the last block, 8,192 tokens, 8 GPUs."""
    recipe = yaml.safe_load((REPO / "tests/fixtures" / MLPERF_RECIPE).read_text(encoding="utf-8"))["result"]
    code, out, _ = run(capsys, "measure", NVIDIA, "--gpus", "8", "--seq-length", "8192", "--window", "337:384")
    assert code == 0
    result = yaml.safe_load(out)["result"]
    for key in ("tokens_per_s_per_gpu", "window", "window_tokens", "steps_per_run", "measured"):
        assert result[key] == recipe[key], key
    # by default the first block (warm-up and compilation) is left out: four blocks of 48 steps
    code, out, _ = run(capsys, "measure", NVIDIA, "--gpus", "8", "--seq-length", "8192")
    blocks = [
        (1920 - 1536, 2.1572070632508296),
        (384, 2.155368837861131),
        (384, 2.154987334010239),
        (384, 2.1552190596720857),
    ]
    expected = sum(s for s, _ in blocks) * 8192 / sum(s / r for s, r in blocks) / 8
    result = yaml.safe_load(out)["result"]
    assert result["tokens_per_s_per_gpu"] == round(expected, 1)
    assert result["window"] == [193, 384]
    hours = (event_time(NVIDIA, "run_stop") - event_time(NVIDIA, "init_start")) / 3_600_000 * 8
    assert result["gpu_hours"] == round(hours, 2)


def test_several_mlperf_runs_are_scored_by_mlperfs_rule(tmp_path: Path) -> None:
    logs = []
    for path in (NVIDIA, DELL, FUJITSU, GAUDI):
        log, _ = parse_mllog(path.read_bytes(), path.name)
        logs.append(log)
    measured, problems = measure(logs, Settings(gpus=8, seq_length=8192))  # type: ignore[arg-type]
    assert problems == () and measured is not None
    minutes = sorted(
        (event_time(p, "run_stop") - event_time(p, "run_start")) / 60000 for p in (NVIDIA, DELL, FUJITSU, GAUDI)
    )
    result = measured.result()
    assert result["time_to_train"]["minutes"] == round(statistics.fmean(minutes[1:-1]), 3)  # type: ignore[index]
    assert result["runs"] == 4
    assert result["time_to_train"]["runs_counted"] == 2  # type: ignore[index]


BAD_MLPERF = [
    (':::MLLOG {"key": "run_start", "time_ms": 5, "event_type": "INTERVAL_START"\n', 1, "the MLLOG event is not JSON"),
    (':::MLLOG ["run_start"]\n', 1, "the MLLOG event is not a JSON object"),
    ('x\n0: :::MLLOG {"key": "run_start", "event_type": "INTERVAL_START"}\n', 2, "has no 'time_ms'"),
    (':::MLLOG {"key": "run_start", "time_ms": NaN, "event_type": "INTERVAL_START"}\n', 1, "not JSON: NaN"),
    (':::MLLOG {"key": "k", "time_ms": 1, "event_type": "SOMETIME"}\n', 1, "has 'event_type' \"SOMETIME\""),
    (
        ':::MLLOG {"key": "k", "time_ms": 1, "event_type": "POINT_IN_TIME", "metadata": 3}\n',
        1,
        "'metadata' that is not",
    ),
    (":::MLLOG " + "[" * 100_000 + "\n", 1, "not JSON"),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD_MLPERF)
def test_a_broken_mllog_line_is_a_located_problem(text: str, line: int, message: str) -> None:
    _, problems = parse_mllog(text.encode(), "bad.txt")
    assert problems and problems[0].path == "bad.txt" and problems[0].line == line, problems
    assert message in problems[0].message


def _event(key: str, time: int, **metadata: object) -> str:
    import json

    data = {"key": key, "time_ms": time, "event_type": "POINT_IN_TIME", "value": None, "metadata": metadata}
    return ":::MLLOG " + json.dumps(data) + "\n"


def test_a_run_that_did_not_finish_or_missed_its_target_gets_no_time_to_train(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = _event("submission_benchmark", 1).replace('"value": null', '"value": "llama2_70b_lora"') + _event(
        "run_start", 10
    )
    cases = {
        "unfinished.txt": (head, "unfinished.txt:2:1: no run_stop after this run_start"),
        "aborted.txt": (
            head + _event("run_stop", 99, status="aborted"),
            "aborted.txt:3:1: the quality target was not reached: run_stop (aborted.txt:3) says 'aborted'",
        ),
        "above.txt": (
            head + _event("eval_accuracy", 50).replace("null", "0.93") + _event("run_stop", 99, status="success"),
            "above.txt:4:1: the quality target was not reached: run_stop (above.txt:4) says 'success' but the last"
            " eval_accuracy, 0.93 (above.txt:3), is above the target eval loss 0.925",
        ),
        "twice.txt": (
            head + _event("run_start", 11) + _event("run_stop", 99, status="success"),
            "twice.txt:3:1: a second run_start (the first is on line 2)",
        ),
        "backwards.txt": (
            head + _event("run_stop", 5, status="success"),
            "backwards.txt:3:1: run_stop is earlier than run_start (line 2)",
        ),
    }
    for name, (text, expected) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        code, out, err = run(capsys, "measure", path, "--gpus", "8")
        assert code == 1, name
        assert expected.replace(f"{name}:", f"{path}:") in out, (name, out)
        assert "result:" not in out and "Traceback" not in out + err


# --- Megatron and torchtitan --------------------------------------------------------------------


def test_megatron_tokens_per_gpu_are_tokens_over_time_in_the_window(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "measure", MEGATRON, "--gpus", "16", "--seq-length", "4096")
    assert code == 0, err
    result = yaml.safe_load(out)["result"]
    # the first line's interval is unknown: steps 72 and 73, one step each
    assert result["tokens_per_s_per_gpu"] == round(2 * 128 * 4096 / (5.4707 + 5.8299) / 16, 1)
    assert result["step_time_cv_percent"] == round(
        statistics.stdev([5470.7, 5829.9]) / statistics.fmean([5470.7, 5829.9]) * 100, 2
    )
    assert result["window"] == [72, 73] and result["window_tokens"] == 2 * 128 * 4096
    assert result["steps_per_run"] == 73 and str(result["measured"]) == "2024-04-06"
    assert "gpu_hours" not in result
    assert f"[{MEGATRON}:2-3]" in out or f"[{MEGATRON}:2,3]" in out
    assert "note: the log stops at step 73 of the 100 its run planned" in err


def test_megatron_needs_the_gpu_count_and_sequence_length_it_does_not_print(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "measure", MEGATRON)
    assert code == 1
    assert (
        f"{MEGATRON}: a Megatron log prints neither GPU count nor sequence length: give --gpus and --seq-length" in out
    )


def test_an_older_megatron_line_without_timestamp_or_throughput_is_read() -> None:
    log, problems = parse_megatron(MEGATRON_OLD.read_text(encoding="utf-8"), "old.log")
    assert problems == () and log is not None
    assert [(s.step, s.steps, s.step_time_ms, s.global_batch_size, s.time) for s in log.steps][1:] == [
        (123, 1, 87871.6, 1024, None),
        (124, 1, 89474.8, 1024, None),
        (125, 1, 89075.2, 1024, None),
    ]
    measured, _ = measure([log], Settings(gpus=512, seq_length=2048))
    assert measured is not None and "measured" not in measured.result()


def test_a_megatron_log_holding_two_runs_is_refused_at_the_line_that_restarts(tmp_path: Path) -> None:
    text = MEGATRON.read_text(encoding="utf-8") + MEGATRON_EARLY.read_text(encoding="utf-8")
    _, problems = parse_megatron(text, "two.log")
    assert str(problems[0]) == (
        "two.log:4:24: iteration 29 after iteration 73 (line 3): the log holds more than one run;"
        " give each run's log on its own"
    )


def test_a_window_asked_for_is_the_logged_intervals_inside_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "measure", TITAN, "--window", "7:9")
    assert code == 0
    assert yaml.safe_load(out)["result"]["window"] == [7, 9]
    code, out, _ = run(capsys, "measure", TITAN, "--window", "50:60")
    assert code == 1
    assert f"{TITAN}: no logged interval lies within steps 50 to 60 (logged steps: 3 to 10;" in out
    code, _, err = run(capsys, "measure", TITAN, "--window", "9:7")
    assert code == 2 and "'9:7' is not FIRST:LAST with 1 <= FIRST <= LAST" in err


def test_torchtitan_tokens_per_gpu_weight_each_lines_tps_by_its_time(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "measure", TITAN)
    assert code == 0
    # the first fifth of 8 lines, rounded up, is 2 lines: steps 3 and 4 are left out
    stamps = {5: 43.713, 6: 44.183, 7: 44.656, 8: 45.126, 9: 45.616, 10: 46.090}
    tps = {5: 34824, 6: 34852, 7: 34692, 8: 34879, 9: 33464, 10: 34574}
    previous = {5: 43.242, **{step: stamps[step - 1] for step in range(6, 11)}}
    spans = {step: stamps[step] - previous[step] for step in stamps}
    expected = sum(tps[s] * spans[s] for s in stamps) / sum(spans.values())
    result = yaml.safe_load(out)["result"]
    assert result["tokens_per_s_per_gpu"] == round(expected, 1)
    assert result["window"] == [5, 10]
    assert "window_tokens" not in result  # torchtitan prints no global batch


def test_torchtitan_reads_one_rank_and_counts_the_others(capsys: pytest.CaptureFixture[str]) -> None:
    log, problems = parse_torchtitan(TITAN_RANKS.read_text(encoding="utf-8"), "ranks.log")
    assert problems == () and log is not None
    assert [(s.at.line, s.step) for s in log.steps] == [(4, 1), (5, 10)]  # rank 2 printed the most lines
    assert log.ignored == 3
    code, out, err = run(capsys, "measure", TITAN_RANKS)
    assert code == 0
    assert yaml.safe_load(out)["result"]["tokens_per_s_per_gpu"] == 5615
    assert "note: 3 lines of other ranks repeating a step were not read" in err


def test_a_file_that_is_no_training_log_and_a_missing_file_are_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "notes.txt"
    other.write_bytes(b"\xff\xfe hello\n")
    code, out, _ = run(capsys, "measure", other)
    assert code == 1 and f"{other}: not a training log this reads" in out
    code, _, err = run(capsys, "measure", tmp_path / "nothing.log")
    assert code == 2 and "nothing.log: no such log file" in err


# --- --write --------------------------------------------------------------------------------------


def test_write_sets_result_in_place_keeping_comments_and_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_project(tmp_path / "project", with_recipes=[MLPERF_RECIPE])
    recipe = root / MLPERF_RECIPE
    original = recipe.read_text(encoding="utf-8")
    commented = original.replace("result:\n", "result:  # measured by hand first\n  # the last block only\n", 1)
    recipe.write_text(commented, encoding="utf-8")
    argv = ["measure", NVIDIA, "--gpus", "8", "--seq-length", "8192", "--write", recipe, "--root", root]
    code, _, err = run(capsys, *argv)
    assert code == 0, err
    written = recipe.read_text(encoding="utf-8")
    assert "result:  # measured by hand first\n  # the last block only\n" in written
    result = yaml.safe_load(written)["result"]
    assert result["window"] == [193, 384] and result["gpu_hours"] > 0
    assert result["time_to_train"]["minutes"] == 27.151
    assert result["mfu_note"] == yaml.safe_load(original)["result"]["mfu_note"]  # keys not measured are kept
    before, after = commented.split("result:", 1)[0], written.split("result:", 1)[0]
    assert before == after  # every line before result, byte for byte
    assert written.split("\nlaunch:", 1)[1] == commented.split("\nlaunch:", 1)[1]
    assert not [p for p in recipe.parent.iterdir() if p.name != recipe.name]  # the trial copy is gone


def test_write_leaves_the_recipe_alone_when_the_result_would_not_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_project(tmp_path / "project", with_recipes=[MLPERF_RECIPE])
    recipe = root / MLPERF_RECIPE
    original = recipe.read_bytes()
    # 4,096 tokens per sample: the window's tokens no longer agree with the recipe's 8,192-token rows
    argv = ["measure", NVIDIA, "--gpus", "8", "--seq-length", "4096", "--write", recipe, "--root", root]
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert f"{recipe}:" in out and "window_tokens" in out
    assert f"{recipe} not written" in err
    assert recipe.read_bytes() == original
    # and a bad log writes nothing either
    bad = tmp_path / "bad.txt"
    bad.write_text(':::MLLOG {"key": \n', encoding="utf-8")
    code, out, _ = run(capsys, "measure", bad, "--gpus", "8", "--write", recipe, "--root", root)
    assert code == 1 and f"{bad}:1:" in out and recipe.read_bytes() == original


def test_set_in_place_adds_missing_keys_in_order_and_a_missing_section() -> None:
    text = "a: 1  # kept\nresult:\n  tokens_per_s_per_gpu: 1\n\n  # about mfu\n  mfu: 0.5\nlaunch: {}\n"
    edited = set_in_place(
        text, "result", {"window": [1, 2], "measured": "x"}, ["tokens_per_s_per_gpu", "mfu", "measured", "window"]
    )
    assert edited == (
        "a: 1  # kept\nresult:\n  tokens_per_s_per_gpu: 1\n\n  # about mfu\n  mfu: 0.5\n"
        "  measured: x\n  window:\n  - 1\n  - 2\nlaunch: {}\n"
    )
    assert set_in_place("a: 1\n", "result", {"runs": 2}, ["runs"]) == "a: 1\nresult:\n  runs: 2\n"


def test_cite_names_each_file_once_with_runs_of_lines() -> None:
    lines = [Where("a", n) for n in (4, 5, 6, 9, 11, 12)] + [Where("b", 1)]
    assert cite(lines) == "a:4-6,9,11,12; b:1"


def test_read_log_refuses_a_huge_file_before_reading_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from openrecipes.measuring import detect

    monkeypatch.setattr(detect, "MAX_BYTES", 10)
    path = tmp_path / "big.log"
    path.write_text("x" * 11, encoding="utf-8")
    log, problems = read_log(path, "big.log")
    assert log is None and problems[0].message == "the log is 11 bytes; at most 10 are read"
