"""Environment names a recipe may not set: those a shell, the dynamic loader, git, Python or another
common tool runs, loads or searches code by.

A recipe's `env` and `launch.env` become `export NAME=value` lines that a reader runs before the
launch (`env.sh`, `launch.sh`); its `inputs` ask the reader to set a variable; a `<placeholder>` of
a documented launch becomes a variable of `launch.sh`. A value that looks like a setting but is a
command or a place code is loaded from (`BASH_ENV`, `LD_PRELOAD`, `PYTHONWARNINGS` with `BROWSER`,
`GIT_CONFIG_*`) would run a stranger's code on the reader's machine the next time bash, Python or
git starts, whatever the script itself reads like. So every such name is refused in recipe data
(the schema's `env-name` and `input-name` formats), and an importer that finds one in a publisher's
file records it in `launch.withheld`, which the page shows as a warning and no script exports.

Each entry is a name or a shell pattern (`LD_*`) with why it is dangerous. Names are compared in
upper case: a shell tells `path` from `PATH`, but zsh ties `path` to `PATH` (and `cdpath`, `fpath`,
`module_path` likewise), curl and wget read `http_proxy`, npm reads `npm_config_*` in any case,
Windows does not tell them apart at all, and a reader cannot either at a glance. A few names of a
refused family are harmless and used by real runs (`PYTHONUNBUFFERED`): they are listed with why.
"""

from __future__ import annotations

import fnmatch
import functools
from dataclasses import dataclass

from .shelltext import variable_for


@dataclass(frozen=True)
class Refused:
    """Names a recipe may not set, and why."""

    patterns: tuple[str, ...]
    """Upper-case names, or shell patterns (`LD_*`, `NCCL_*_PLUGIN`)."""
    why: str
    """What the name does, said after it: `BASH_ENV names a file bash runs ...`."""

    def matches(self, upper: str) -> bool:
        return any(upper == pattern or fnmatch.fnmatchcase(upper, pattern) for pattern in self.patterns)


def _refused(*patterns_then_why: str) -> Refused:
    *patterns, why = patterns_then_why
    return Refused(tuple(patterns), why)


REFUSED: tuple[Refused, ...] = (
    # --- shells: bash, sh, zsh, ksh, and the readline they share ---------------------------------
    _refused("BASH_ENV", "names a file bash runs before every non-interactive script it starts"),
    _refused("ENV", "names a file sh, dash, ksh and bash in POSIX mode run when they start interactively"),
    _refused("PROMPT_COMMAND", "is a command bash runs before it prints each prompt"),
    _refused(
        "PS0",
        "PS1",
        "PS2",
        "PS3",
        "PS4",
        "is a prompt the shell expands, command substitutions included, each time it prints it (PS4 before "
        "every traced command)",
    ),
    _refused(
        "PROMPT",
        "PROMPT2",
        "PROMPT3",
        "PROMPT4",
        "RPROMPT",
        "RPROMPT2",
        "RPS1",
        "RPS2",
        "is a zsh prompt, which zsh expands (command substitutions included, with PROMPT_SUBST) each time it prints it",
    ),
    _refused(
        "IFS",
        "changes how the shell splits every unquoted expansion into words, so commands run with other "
        "arguments than they read",
    ),
    _refused(
        "PATH",
        "lists the folders the shell searches for every command, so a folder it puts first runs its own "
        "git, python or sbatch",
    ),
    _refused("CDPATH", "makes cd look for a relative folder in other folders first, so the script works elsewhere"),
    _refused("FPATH", "lists the folders zsh and ksh load functions from, which then run as commands"),
    _refused("MODULE_PATH", "lists the folders zsh loads modules (shared libraries) from"),
    _refused("ZDOTDIR", "is the folder every zsh, scripts included, runs its startup files (.zshenv) from"),
    _refused("SHELLOPTS", "turns on the bash options it lists in every bash it starts (xtrace with PS4 runs code)"),
    _refused("BASHOPTS", "turns on the shopt options it lists in every bash it starts"),
    _refused("BASH_FUNC_*", "holds a function bash imports when it starts, which replaces the command of its name"),
    _refused("BASH_LOADABLES_PATH", "lists the folders bash loads builtins (shared libraries) from"),
    _refused("GLOBIGNORE", "hides files from every glob, so a command is given other files than it reads"),
    _refused("EXECIGNORE", "hides programs from the command search, so another program of the same name runs"),
    _refused("HISTFILE", "is the file an interactive shell writes its history to, replacing what it held"),
    _refused("INPUTRC", "names the readline startup file, whose key bindings can type and run commands"),
    _refused("MAILPATH", "lists files an interactive shell watches, with messages it expands when they change"),
    _refused(
        "HOME",
        "is where bash, git, ssh, pip and Python read their own startup and configuration files "
        "(.bashrc, .gitconfig, .ssh/config, user site-packages), which can run commands",
    ),
    _refused(
        "XDG_CONFIG_HOME",
        "XDG_CONFIG_DIRS",
        "is where git, enroot and other tools read their configuration, which can name commands to run "
        "(git's core.sshCommand, enroot's hooks)",
    ),
    _refused("SHELL", "is the program srun --pty, tmux, screen and editors start as a shell"),
    # --- the dynamic loader and the C library --------------------------------------------------
    _refused(
        "LD_*",
        "is read by the dynamic loader of every program (LD_PRELOAD and LD_AUDIT load a library into it, "
        "LD_LIBRARY_PATH chooses where its libraries come from)",
    ),
    _refused(
        "DYLD_*",
        "is read by macOS's dynamic loader (DYLD_INSERT_LIBRARIES loads a library into every program, "
        "DYLD_LIBRARY_PATH chooses where its libraries come from)",
    ),
    _refused(
        "GLIBC_TUNABLES",
        "changes how the C library behaves in every program; it has been a way into set-user-ID programs "
        "(CVE-2023-4911)",
    ),
    _refused(
        "GCONV_PATH",
        "lists the folders the C library loads character-set converters (shared libraries) from; it has "
        "been a way into pkexec (CVE-2021-4034)",
    ),
    _refused("LOCPATH", "NLSPATH", "is where the C library reads locale data and messages from, in every program"),
    _refused(
        "HOSTALIASES", "names a file of host-name aliases the resolver follows, so a download reaches another host"
    ),
    # --- git and ssh ---------------------------------------------------------------------------
    _refused(
        "GIT_CONFIG_*",
        "sets any git configuration (GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, "
        "GIT_CONFIG_PARAMETERS, GIT_CONFIG_GLOBAL), among it core.sshCommand, core.fsmonitor and "
        "core.hooksPath, which run commands",
    ),
    _refused(
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_ASKPASS",
        "GIT_EDITOR",
        "GIT_PAGER",
        "GIT_EXTERNAL_DIFF",
        "GIT_PROXY_COMMAND",
        "GIT_SEQUENCE_EDITOR",
        "is a command git runs",
    ),
    _refused("GIT_EXEC_PATH", "is the folder git runs its own programs (git-clone, git-checkout) from"),
    _refused("GIT_TEMPLATE_DIR", "is the folder git copies hooks from into every repository it clones"),
    _refused("GIT_DIR", "GIT_WORK_TREE", "points git at another repository than the one the checkout made"),
    _refused(
        "GIT_*",
        "is read by git, whose variables choose the repository, the configuration, the commands it runs and "
        "the certificates it trusts",
    ),
    _refused(
        "SSH_ASKPASS",
        "SSH_ASKPASS_REQUIRE",
        "SUDO_ASKPASS",
        "names a program ssh or sudo runs to ask for a password",
    ),
    # --- Python and the tools that install its packages ----------------------------------------
    _refused("PYTHONSTARTUP", "names a file Python runs when it starts interactively"),
    _refused("PYTHONPATH", "lists folders Python imports modules from before its own"),
    _refused("PYTHONHOME", "is where Python takes its standard library from"),
    _refused(
        "PYTHONWARNINGS",
        "makes Python import the module a warning filter names when it starts (with BROWSER, one such "
        "module runs a command)",
    ),
    _refused("PYTHONBREAKPOINT", "names a function Python imports and calls at every breakpoint()"),
    _refused("PYTHONUSERBASE", "is where Python's user site-packages are, whose .pth files run at every start"),
    _refused("PYTHONPYCACHEPREFIX", "is where Python reads compiled modules from"),
    _refused(
        "PYTHON*",
        "is read by Python when it starts, and each release adds more (PYTHON_PRESITE imports a module "
        "before any other)",
    ),
    _refused(
        "PIP_*",
        "is an option pip takes from the environment (PIP_INDEX_URL and PIP_EXTRA_INDEX_URL install packages, "
        "and run their build code, from another index)",
    ),
    _refused(
        "UV_*",
        "is a setting uv takes from the environment (UV_INDEX_URL and UV_PYTHON choose where packages and "
        "the interpreter come from)",
    ),
    _refused(
        "HF_ENDPOINT",
        "is the host huggingface_hub downloads models from; a model with code of its own (trust_remote_code) "
        "runs Python from there",
    ),
    # --- other languages' runtimes -------------------------------------------------------------
    _refused("NODE_OPTIONS", "gives every node options (--require loads a module into it)"),
    _refused("NODE_PATH", "lists folders node loads modules from"),
    _refused("NPM_CONFIG_*", "is npm's configuration (its registry, its script-shell), read in any letter case"),
    _refused("PERL5OPT", "gives every perl options (-M loads a module into it)"),
    _refused("PERL5LIB", "PERLLIB", "lists folders perl loads modules from first"),
    _refused("PERL5DB", "is the code perl's debugger runs"),
    _refused("RUBYOPT", "gives every ruby options (-r loads a library into it)"),
    _refused("RUBYLIB", "lists folders ruby loads libraries from first"),
    _refused(
        "JAVA_TOOL_OPTIONS",
        "JDK_JAVA_OPTIONS",
        "_JAVA_OPTIONS",
        "gives every Java program options (-javaagent loads code into it)",
    ),
    _refused("CLASSPATH", "lists where Java loads classes from first"),
    _refused("LUA_*", "is read by lua when it starts (LUA_INIT is code it runs; LUA_PATH where it loads modules)"),
    # --- pagers, editors, browsers -------------------------------------------------------------
    _refused(
        "BROWSER",
        "is a command Python's webbrowser, git and other tools run to open a page (with PYTHONWARNINGS, "
        "python runs it when it starts)",
    ),
    _refused("EDITOR", "VISUAL", "SUDO_EDITOR", "FCEDIT", "is a command git, crontab, fc and others run to edit text"),
    _refused("PAGER", "MANPAGER", "SYSTEMD_PAGER", "is a command git, man, systemctl and others run to page output"),
    _refused("LESSOPEN", "LESSCLOSE", "is a command less runs on every file it opens or closes"),
    # --- compilers and builds (pip, setuptools, CMake and torch build extensions with them) -----
    _refused(
        "CC",
        "CXX",
        "CPP",
        "LD",
        "CUDACXX",
        "CUDAHOSTCXX",
        "is the compiler or linker builds run (pip installs, setuptools, CMake, torch's extensions)",
    ),
    _refused(
        "CFLAGS",
        "CXXFLAGS",
        "CPPFLAGS",
        "LDFLAGS",
        "NVCC_PREPEND_FLAGS",
        "NVCC_APPEND_FLAGS",
        "is added to every compile (-B and -ccbin choose the programs the compiler runs, -fplugin loads a "
        "library into it)",
    ),
    _refused("MAKEFLAGS", "MFLAGS", "gives make options and variables (SHELL= is the program every rule runs in)"),
    _refused("MAKEFILES", "lists makefiles make reads before any other"),
    _refused("CMAKE_TOOLCHAIN_FILE", "names a CMake file every CMake configuration runs first"),
    _refused(
        "CUDA_HOME",
        "CUDA_PATH",
        "ROCM_HOME",
        "ROCM_PATH",
        "is where torch's extension builds (Megatron's fused kernels, apex) run the compiler from and find "
        "the toolkit's libraries",
    ),
    # --- the GPU stack, MPI, Slurm and the container runtime of these launches ----------------
    _refused(
        "CUDA_INJECTION32_PATH",
        "CUDA_INJECTION64_PATH",
        "names a library the CUDA driver loads into every CUDA program",
    ),
    _refused(
        "NVTX_INJECTION32_PATH",
        "NVTX_INJECTION64_PATH",
        "names a library NVTX loads into every program that marks ranges (PyTorch, Megatron)",
    ),
    _refused("NCCL_*_PLUGIN", "names a plugin (a shared library) NCCL loads into every training process"),
    _refused("NCCL_CONF_FILE", "names a file NCCL reads its variables from, its plugins among them"),
    _refused(
        "TRITON_*_PATH",
        "names a binary Triton runs to compile every kernel (ptxas, cuobjdump, nvdisasm)",
    ),
    _refused(
        "TRITON_CACHE_DIR",
        "TORCHINDUCTOR_CACHE_DIR",
        "is where Triton and TorchInductor load compiled kernels and their launchers (shared libraries) from",
    ),
    _refused(
        "OMPI_MCA_PLM_RSH_AGENT",
        "OMPI_MCA_ORTE_RSH_AGENT",
        "PRTE_MCA_PLM_SSH_AGENT",
        "is the command Open MPI runs to start processes on the other nodes",
    ),
    _refused("OMPI_MCA_MCA_BASE_COMPONENT_PATH", "lists folders Open MPI loads components (shared libraries) from"),
    _refused(
        "SLURM_PROLOG",
        "SLURM_EPILOG",
        "SLURM_TASK_PROLOG",
        "SLURM_TASK_EPILOG",
        "names a program srun runs before or after every task (--prolog, --task-prolog)",
    ),
    _refused(
        "ENROOT_CONFIG_PATH",
        "ENROOT_SYSCONF_PATH",
        "is where enroot, which starts these launches' containers, runs hooks (hooks.d) and reads the "
        "environment and mounts of every container from",
    ),
    _refused("ENROOT_LIBRARY_PATH", "ENROOT_LIBEXEC_PATH", "is the folder enroot runs its own scripts from"),
    # --- where downloads come from and whom they trust -----------------------------------------
    _refused(
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "FTP_PROXY",
        "routes the launch's downloads (git clone, pip, curl, huggingface_hub) through a host the recipe chooses",
    ),
    _refused(
        "SSL_CERT_FILE",
        "SSL_CERT_DIR",
        "REQUESTS_CA_BUNDLE",
        "CURL_CA_BUNDLE",
        "NODE_EXTRA_CA_CERTS",
        "replaces the certificate authorities downloads are checked against, so an https download can come from "
        "someone else",
    ),
    _refused(
        "OPENSSL_CONF",
        "OPENSSL_ENGINES",
        "OPENSSL_MODULES",
        "is where OpenSSL, in every program that speaks TLS, reads its configuration and loads engines and "
        "providers (shared libraries) from",
    ),
)
"""Every name or pattern a recipe may not set, each with why; the first that matches gives the reason."""


HARMLESS: dict[str, str] = {
    "PYTHONUNBUFFERED": "only turns off the buffering of Python's output",
    "PYTHONDONTWRITEBYTECODE": "only stops Python writing compiled modules",
    "PYTHONHASHSEED": "only fixes the seed of Python's string hashing",
    "PYTHONIOENCODING": "only sets the encoding of Python's standard streams",
    "PYTHONUTF8": "only makes Python read and write text as UTF-8",
    "PYTHONFAULTHANDLER": "only makes Python print tracebacks on a crash",
    "PYTHONNOUSERSITE": "only stops Python reading the user's site-packages, which is safer",
    "PYTHONSAFEPATH": "only stops Python importing from the script's folder first, which is safer",
}
"""Names of a refused family that only change how a program reports or formats, never what code it
runs or where it loads it from; real launches set them. Compared exactly (upper case)."""


@functools.lru_cache(maxsize=4096)
def is_dangerous_name(name: str) -> str | None:
    """Why a recipe may not set the environment variable `name` (`BASH_ENV names a file bash runs
    ...`), or None when it may."""
    if name in HARMLESS:
        return None
    upper = name.upper()
    for entry in REFUSED:
        if entry.matches(upper):
            if upper == name:
                return f"{name} {entry.why}"
            return (
                f"{name} is {upper} in other letters, which zsh, curl, npm and Windows read as {upper}; "
                f"{upper} {entry.why}"
            )
    return None


def placeholder_problem(placeholder: str, script: str = "launch.sh or prepare.sh") -> str | None:
    """Why `<placeholder>` may not be an input of a documented launch: the variable `script` makes
    of it is a name a recipe may not set (or would be one beside another input of its name, which
    the script tells apart as NAME_INPUT)."""
    base = variable_for(placeholder, ())
    for variable in (base, f"{base}_INPUT"):
        reason = is_dangerous_name(variable)
        if reason is not None:
            beside = "" if variable == base else f" beside another input named {base}"
            return (
                f"becomes the variable {variable} in {script}{beside}, a name a recipe may not set: {reason}; "
                "name the placeholder for what to provide (<path/to/dataset>)"
            )
    return None


def env_name_problem(name: str) -> str | None:
    """The schema's `env-name` format: why `name` may not be a key of `env` or `launch.env`."""
    reason = is_dangerous_name(name)
    return None if reason is None else f"cannot be set by a recipe: {reason}"


def input_name_problem(name: str) -> str | None:
    """The schema's `input-name` format: why a script input's name (a variable, or a placeholder
    written with its brackets) may not be one."""
    if name.startswith("<") and name.endswith(">"):
        return placeholder_problem(name[1:-1])
    reason = is_dangerous_name(name)
    return None if reason is None else f"cannot be an input a reader is asked to set: {reason}"


def withheld_name_problem(name: str) -> str | None:
    """The schema's `withheld-name` format: `launch.withheld` holds only names a recipe may not set."""
    if is_dangerous_name(name) is None:
        return "is a name a recipe may set: list it in launch.env, not launch.withheld"
    return None
