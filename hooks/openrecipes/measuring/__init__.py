"""Measuring: training logs become located values, then the figures a recipe's `result` holds.

A reader per log format turns text into frozen records, each value with the file and line it came
from, and every problem as a located `Problem` (never an exception): `mllog` reads MLPerf's
`:::MLLOG {json}` lines (run_start/run_stop, evaluations, the quality target, batch, sequence
length, `tracked_stats` throughput, submission); `megatron` reads Megatron-LM and
Megatron-Bridge iteration lines; `torchtitan` reads torchtitan's step lines. `compute` turns
them into figures (tokens/s per GPU over a stated window, step-time variation, GPU-hours, time to
train, whether a quality target was reached), each citing the lines it rests on. Nothing here
writes files or imports anything above `reading`.
"""
