#!/bin/bash
export MLPERF_SUBMITTER=Krai
export MLPERF_SYSTEM_NAME="HPE Cray XD670"
export MLPERF_STATUS="Available on-premise"

export WORK_DIR=~/training_results_v5.0/HPE/benchmarks/llama2_70b_lora/implementations/nemo

export TRAINING_DATA=~/training_data/llama2_70b_lora
export DATADIR=$TRAINING_DATA/gov_report
export MODEL=$TRAINING_DATA/model
export LOGDIR=$TRAINING_DATA/logs
export CONT=$TRAINING_DATA/mlperf-nvidia+llama2_70b_lora-pyt.sqsh

export DGXSYSTEM=$(basename $(readlink -f ${BASH_SOURCE[1]}) | sed 's/^config_//' | sed 's/\.sh$//' )

export NCCL_MIN_P2P_NCHANNELS=32;
export NCCL_MIN_CTAS=32;
export NCCL_NCHANNELS_PER_NET_PEER=32;
export MC_TP_OVERLAP_AG=True
export MC_TP_OVERLAP_RS=True
export MC_TP_OVERLAP_RS_DGRAD=True
export CUBLAS_FORCE_XMMA_KERNEL_INIT=DEVICE
export NVTE_RS_STRIDED_ATOMIC=2
export LORA_A2A=1
export NEMO_LORA_USE_THUNDER_DROPOUT=1

export POSSIBLE_USER_WARNINGS=0
export CUDNN_FRONTEND_ATTN_DP_WORKSPACE_LIMIT=0
export TORCH_NCCL_AVOID_RECORD_STREAMS=1 # Disable caching NCCL communication buffer
export CUDA_DEVICE_MAX_CONNECTIONS=1

export FP8=True
export FP8_AMAX_ALGO=max
export FP8_REDUCE_AMAX=True
export FP8_AMAX_HISTORY=4
export FP8_DPA=1
export NVTE_FP8_DPA_BWD=1
export HYDRA_FULL_ERROR=1
export HF_HUB_OFFLINE=1
export TORCH_NCCL_HIGH_PRIORITY=1
export PP=1
export CG_WEIGHT_CACHING=0

export NVTE_NORM_FWD_USE_CUDNN=1
export NVTE_NORM_BWD_USE_CUDNN=1

export WARMUP=True
export WARMUP_TRAIN_STEPS=5
export WARMUP_VALIDATION_STEPS=5

# other
export MBS=1
export VAL_MBS=1
export VAL_CHECK_INTERVAL=384
export TORCH_CPP_LOG_LEVEL=ERROR
export LOAD_CKPT=True

export NCCL_NVLS_ENABLE=1
export NCCL_GRAPH_REGISTER=0
export NCCL_LOCAL_REGISTER=0
