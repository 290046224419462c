"""Reading: files written by strangers become data, then records.

`yamlsource` reads YAML without tags, duplicates or alias bombs, remembering every value's line
and column and refusing characters no recipe needs; `schema` validates against
`schema/*.schema.yaml` with located, explained errors (`refs` resolves its `$ref`s, `plaintext`
holds the rules for names and prose); `envnames` declares the environment names a recipe may not
set, each with why, and `launchsafety` refuses launch text a reader cannot see whole and a checkout
of anything but what it cites; `records` makes the frozen dataclasses a recipe becomes,
from the schema itself; `placeholders` refuses the `FILL IN` values `openrecipes new` writes;
`reference` reads the sourced reference data (GPU peaks, instance prices, model sizes);
`yamlwrite` is the one writer of recipe files; `gitrev` reads the project's files at a git
revision (for `openrecipes diff` and the importers); `shelltext` and `shellenv` read bash without
running it (what each character is, and a launch's `<placeholders>`; the commands, and the
environment a sourced configuration leaves, values set only under a condition apart).
"""
