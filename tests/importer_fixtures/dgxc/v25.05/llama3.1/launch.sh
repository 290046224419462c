#!/bin/bash
# Written for the tests: the lines of a v25.05 launch script the importer reads.
export FW_VERSION=25.04.01
GPU_TYPE=${GPU_TYPE:-gb200}
if [ $GPU_TYPE = "gb200" ] || [ $GPU_TYPE = "b200" ]; then
  if [ $GPU_TYPE = "gb200" ]; then
    DEF_GPUS_PER_NODE=4
  elif [ $GPU_TYPE = "b200" ]; then
    DEF_GPUS_PER_NODE=8
  fi
elif [ $GPU_TYPE = "h100" ]; then
  DEF_GPUS_PER_NODE=8
else
  exit 1
fi
GPUS_PER_NODE=${GPUS_PER_NODE:-$DEF_GPUS_PER_NODE}
