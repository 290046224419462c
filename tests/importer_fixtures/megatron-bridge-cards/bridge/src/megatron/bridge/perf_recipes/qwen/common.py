"""Written for tests/test_cards.py: an environment a perf recipe starts from."""

COMMON_ENV = {"CUDA_DEVICE_MAX_CONNECTIONS": "32", "LD_LIBRARY_PATH": "/opt/extra"}
