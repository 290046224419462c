#!/bin/bash
# Written for the tests: the lines of a v25.05 launch script the importer reads.
export FW_VERSION=25.04.01
if [[ $GPU_TYPE = "h100"  ]]; then
  GPUS_PER_NODE=${GPUS_PER_NODE:-8}
elif [[ $GPU_TYPE = "gb200" ]]; then
  GPUS_PER_NODE=${GPUS_PER_NODE:-4}
fi
