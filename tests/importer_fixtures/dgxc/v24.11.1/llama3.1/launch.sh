#!/bin/bash
# Written for the tests: the lines of a v24.11.1 launch script the importer reads.
#SBATCH --ntasks-per-node=8

export FRAMEWORK=nemo
export FW_VERSION=24.09
export JOB_TOTAL_GPUS=${SBATCH_GPUS:-$(( ${SLURM_JOB_NUM_NODES} * ${SLURM_NTASKS_PER_NODE} ))}
