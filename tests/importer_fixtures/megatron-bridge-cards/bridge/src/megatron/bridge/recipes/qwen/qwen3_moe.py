"""A library recipe written for tests/test_cards.py, of the same name as the perf recipe: the runner
loads the perf recipe."""

from megatron.bridge.training.config import ConfigContainer


def qwen3_30b_a3b_pretrain_8gpu_gb300_fp8mx_config() -> ConfigContainer:
    cfg = ConfigContainer()
    cfg.model.tensor_model_parallel_size = 4
    return cfg
