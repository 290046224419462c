# A hand-written stand-in for Megatron-Bridge's scripts/performance/argument_parser.py (tests only).

NUM_GPUS_PER_NODE_MAP = {
    "h100": 8,
    "b200": 8,
    "b300": 8,
    "gb200": 4,
    "gb300": 4,
}
