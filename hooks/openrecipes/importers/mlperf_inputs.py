"""What an MLPerf submission's documented commands read from whoever runs them (its launch's and its
preparation's placeholders and variables), said once for every launch: what to provide, where it
comes from, and what kind of input it is."""

from __future__ import annotations

INPUTS = {
    "<docker/registry:benchmark-tag>": (
        "A registry and tag you can push to and the cluster can pull from, for the image built from the "
        "implementation's Dockerfile.",
        "your container registry",
    ),
    "<path/to/data/dir>": (
        "The benchmark's prepared data set, on a path every node can read.",
        "the implementation's README",
    ),
    "<path/to/dataset>": (
        "The benchmark's prepared data set, on a path every node can read.",
        "the implementation's README",
    ),
    "<container/name>": (
        "The image built from the implementation's Dockerfile, pushed where the cluster can pull it.",
        "your container registry",
    ),
    "<as/set/above>": (
        "The value the README sets for the same variable in an earlier step: CONT, the image built from the "
        "implementation's Dockerfile; DATADIR, the prepared data set's path.",
        "the implementation's README",
    ),
    "<path/to/output/dir>": (
        "Where the logs are written, on a path every node can write.",
        "your cluster's shared storage",
    ),
    "<path/to/model>": ("The prepared model checkpoint, on a path every node can read.", "the implementation's README"),
    "<docker/registry>": (
        "A registry you can push to and the cluster can pull from, for the image built from the implementation's "
        "Dockerfile.",
        "your container registry",
    ),
    "<path/to/output_logdir>": (
        "Where the logs are written, on a path every node can write.",
        "your cluster's shared storage",
    ),
    "<path/to/your/downloaded/checkpoint>": (
        "The model checkpoint the benchmark starts from, downloaded and converted as the implementation's README "
        "says, on a path every node can read.",
        "the implementation's README",
    ),
    "<path/to/your/preprocessed_c4>": (
        "The C4 data set, preprocessed as the implementation's README says, on a path every node can read.",
        "the implementation's README",
    ),
    "<path/to/your/tokenizer.model>": (
        "The tokenizer model file the implementation's README names, on a path every node can read.",
        "the implementation's README",
    ),
    "<container image>": (
        "The tag to give the image built from the implementation's Dockerfile, in a registry the cluster can "
        "pull from: the launch runs the same image.",
        "your container registry",
    ),
    "CONT": (
        "The tag to give the image built from the implementation's Dockerfile, in a registry the cluster can "
        "pull from: the launch reads the same CONT.",
        "your container registry",
    ),
    "PREPROCESSED_PATH": (
        "The folder of the preprocessed C4 data set, downloaded as the reference's instructions (linked from the "
        "implementation's README) say.",
        "the implementation's README",
    ),
    "TOKENIZER_PATH": (
        "The folder of the benchmark's tokenizer, downloaded as the reference's instructions (linked from the "
        "implementation's README) say.",
        "the implementation's README",
    ),
    "DGXNNODES": ("Nodes the job takes; the configuration exports it.", "the configuration file"),
    "WALLTIME": ("The job's time limit; the configuration exports it.", "the configuration file"),
}
"""`<placeholder>` or variable, as the commands write it: (what to provide, where it comes from)."""

KINDS = {
    "<docker/registry:benchmark-tag>": "container-image",
    "<container/name>": "container-image",
    "<docker/registry>": "container-image",
    "<container image>": "container-image",
    "CONT": "container-image",
    "<path/to/data/dir>": "data",
    "<path/to/dataset>": "data",
    "<path/to/your/preprocessed_c4>": "data",
    "<desired/dataset/path>": "data",
    "<path/to/model>": "checkpoint",
    "<path/to/your/downloaded/checkpoint>": "checkpoint",
    "<path/to/your/tokenizer.model>": "checkpoint",
    "PREPROCESSED_PATH": "data",
    "TOKENIZER_PATH": "checkpoint",
}
"""The kind of each input above that has one (the schema's `kind`)."""


def described(written: str) -> tuple[str | None, str | None, str | None]:
    """(what to provide, where it comes from, its kind) of a placeholder or variable as written; a
    placeholder written from the root (`</path/to/dataset>`) is the one written without it."""
    plain = written.replace("</", "<", 1)
    description, origin = INPUTS.get(written, INPUTS.get(plain, (None, None)))
    return description, origin, KINDS.get(written, KINDS.get(plain))
