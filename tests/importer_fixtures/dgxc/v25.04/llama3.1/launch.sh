#!/bin/bash
# Written for the tests: the lines of a v25.04 launch script the importer reads.
export FW_VERSION=25.02.01
export GPUS_PER_NODE=${GPUS_PER_NODE:-8}
