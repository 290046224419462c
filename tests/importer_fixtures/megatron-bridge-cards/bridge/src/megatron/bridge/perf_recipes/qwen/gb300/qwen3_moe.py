"""A flat perf recipe written for tests/test_cards.py, in the shape train.sh --recipe loads."""

from megatron.bridge.models import Qwen3MoEModelProvider
from megatron.bridge.perf_recipes.qwen.common import COMMON_ENV
from megatron.bridge.training.config import ConfigContainer, GPTDatasetConfig, TrainingConfig


def qwen3_30b_a3b_pretrain_8gpu_gb300_fp8mx_config() -> ConfigContainer:
    cfg = ConfigContainer(
        model=Qwen3MoEModelProvider(),
        train=TrainingConfig(global_batch_size=512),
        dataset=GPTDatasetConfig(seq_length=2048),
    )
    cfg.model.tensor_model_parallel_size = 1
    cfg.model.pipeline_model_parallel_size = 1
    cfg.model.virtual_pipeline_model_parallel_size = None
    cfg.model.context_parallel_size = 1
    cfg.model.expert_model_parallel_size = 8
    cfg.model.expert_tensor_parallel_size = 1
    cfg.train.micro_batch_size = 8
    cfg.env_vars = {**COMMON_ENV, "NVTE_FWD_LAYERNORM_SM_MARGIN": "20"}
    return cfg
